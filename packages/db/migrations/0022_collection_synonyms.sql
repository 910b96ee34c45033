-- A collection's own synonyms (its jargon), in Solr's format as the team wrote them: applied to
-- questions at search time, so changing them needs no re-indexing. One row per collection.
CREATE TABLE collection_synonyms (
  collection text PRIMARY KEY,
  rules text NOT NULL,
  rule_count integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text
);
