-- A chunk's collection, copied from its document when the chunk is stored (a document never
-- changes collection), and the keyword index keyed by it. Keyword candidates were taken from the
-- GIN index on terms (up to a budget) before another collection's were dropped: 20,000 rows with
-- the same words in one collection crowded a reader's own passages of another out of the budget,
-- and their count moved its timings. With the collection in the index, a search reads its own
-- collections' postings only: what it finds, and how fast, does not depend on what others hold.
CREATE EXTENSION IF NOT EXISTS btree_gin WITH SCHEMA public;

ALTER TABLE chunks ADD COLUMN collection text;
UPDATE chunks c SET collection = d.collection FROM documents d WHERE d.id = c.document_id;
ALTER TABLE chunks ALTER COLUMN collection SET NOT NULL;

CREATE FUNCTION chunks_take_collection() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.collection IS NULL THEN
    SELECT d.collection INTO NEW.collection FROM documents d WHERE d.id = NEW.document_id;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER chunks_take_collection BEFORE INSERT ON chunks
  FOR EACH ROW EXECUTE FUNCTION chunks_take_collection();

-- As chunks_terms_idx was (0007): new entries straight into the index, no pending list.
CREATE INDEX chunks_collection_terms_idx ON chunks USING gin (collection, terms) WITH (fastupdate = off);
DROP INDEX chunks_terms_idx;
