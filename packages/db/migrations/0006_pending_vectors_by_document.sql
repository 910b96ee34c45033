-- How many of a document's chunks still wait for their vectors (no embedding model yet): counted
-- for every document the API shows, so it must be cheap.
CREATE INDEX IF NOT EXISTS chunks_pending_by_document_idx ON chunks (document_id) WHERE embedding_status = 'pending';
