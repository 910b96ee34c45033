-- Collections named once. A collection begins with its first document (an upload, a web page, a
-- source's sync) or when an admin creates one; everything else that names a collection — a
-- question, a search, a key, a source, synonyms, cases — names one that exists, so a misspelt name
-- is an error instead of an ordinary refusal or a new, empty team.
CREATE TABLE collections (
  name text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO collections (name)
SELECT 'default'
UNION SELECT collection FROM documents
UNION SELECT collection FROM sources
UNION SELECT collection FROM collection_synonyms
UNION SELECT collection FROM collection_calibration
UNION SELECT collection FROM evaluation_cases
UNION SELECT unnest(collections) FROM api_keys WHERE collections IS NOT NULL;

-- Whatever path stores a document (the upload route, a source's sync, a bulk load), its collection
-- then exists: the rule lives with the data, not in each writer.
CREATE FUNCTION documents_collection_known() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO collections (name) VALUES (NEW.collection) ON CONFLICT DO NOTHING;
  RETURN NEW;
END $$;
CREATE TRIGGER documents_collection_known BEFORE INSERT OR UPDATE OF collection ON documents
  FOR EACH ROW EXECUTE FUNCTION documents_collection_known();
