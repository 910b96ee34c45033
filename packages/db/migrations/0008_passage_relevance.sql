-- Keyword scoring beyond BM25 of a chunk's words (packages/keyword, passage-relevance.ts): the
-- chunk's Japanese character pairs and its parent section's words count too. Measured on JaQuAD,
-- SQuAD and SciFact (pnpm bench relevance); the first stage (GIN on terms) is unchanged.

-- The distinct character pairs of a chunk's Japanese runs (their counts are read from the text):
-- wide, so stored out of line and read only for the candidates being scored.
ALTER TABLE chunks ADD COLUMN bigrams text[] NOT NULL DEFAULT '{}';
ALTER TABLE chunks ADD COLUMN bigram_count integer NOT NULL DEFAULT 0;
ALTER TABLE chunks ALTER COLUMN bigrams SET STORAGE EXTENDED;
-- A parent section's words with their counts, looked up per query word for the candidates' parents.
ALTER TABLE sections ADD COLUMN term_tf jsonb NOT NULL DEFAULT '{}';
ALTER TABLE sections ADD COLUMN term_count integer NOT NULL DEFAULT 0;

ALTER TABLE corpus_stats ADD COLUMN bigrams bigint NOT NULL DEFAULT 0;
ALTER TABLE corpus_stats ADD COLUMN sections bigint NOT NULL DEFAULT 0;
ALTER TABLE corpus_stats ADD COLUMN section_terms bigint NOT NULL DEFAULT 0;
UPDATE corpus_stats SET sections = (SELECT count(*) FROM sections);

-- Chunks holding each pair are counted in term_stats under the pair with a leading space, which no
-- word holds (words are ICU word segments).
CREATE OR REPLACE FUNCTION chunks_stats_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Sorted, so concurrent transactions lock term rows in one order (no deadlocks).
  INSERT INTO term_stats (term, df)
  SELECT term, count(*) FROM (
    SELECT DISTINCT n.id, t.term FROM added n, unnest(n.terms) AS t(term)
    UNION ALL
    SELECT n.id, ' ' || p.pair FROM added n, unnest(n.bigrams) AS p(pair)
  ) x
  GROUP BY term ORDER BY term
  ON CONFLICT (term) DO UPDATE SET df = term_stats.df + excluded.df;
  UPDATE corpus_stats SET chunks = chunks + (SELECT count(*) FROM added),
                          terms = terms + (SELECT coalesce(sum(term_count), 0) FROM added),
                          bigrams = bigrams + (SELECT coalesce(sum(bigram_count), 0) FROM added);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION chunks_stats_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE term_stats s SET df = s.df - x.n
    FROM (SELECT term, count(*) AS n FROM (
            SELECT DISTINCT o.id, t.term FROM removed o, unnest(o.terms) AS t(term)
            UNION ALL
            SELECT o.id, ' ' || p.pair FROM removed o, unnest(o.bigrams) AS p(pair)
          ) d
          GROUP BY term ORDER BY term) x
   WHERE s.term = x.term;
  UPDATE corpus_stats SET chunks = chunks - (SELECT count(*) FROM removed),
                          terms = terms - (SELECT coalesce(sum(term_count), 0) FROM removed),
                          bigrams = bigrams - (SELECT coalesce(sum(bigram_count), 0) FROM removed);
  RETURN NULL;
END $$;

CREATE FUNCTION sections_stats_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE corpus_stats SET sections = sections + (SELECT count(*) FROM added),
                          section_terms = section_terms + (SELECT coalesce(sum(term_count), 0) FROM added);
  RETURN NULL;
END $$;

CREATE FUNCTION sections_stats_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE corpus_stats SET sections = sections - (SELECT count(*) FROM removed),
                          section_terms = section_terms - (SELECT coalesce(sum(term_count), 0) FROM removed);
  RETURN NULL;
END $$;

CREATE TRIGGER sections_stats_insert AFTER INSERT ON sections REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION sections_stats_added();
CREATE TRIGGER sections_stats_delete AFTER DELETE ON sections REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION sections_stats_removed();

-- Which analyser made the stored terms. Chunks stored before this migration hold the ICU words of
-- the first analyser; the store worker re-analyses them (ingest's reanalyzeKeywordIndex).
CREATE TABLE keyword_index (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  analyzer text NOT NULL
);
INSERT INTO keyword_index (analyzer) VALUES ('icu-1');
