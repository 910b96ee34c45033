-- A PDF page without a text layer is read by an OCR job of its own: it is a part of its own,
-- waiting at 'awaiting-ocr' until its job has read it, and the page it is.
ALTER TABLE ingest_parts DROP CONSTRAINT ingest_parts_stage_check;
ALTER TABLE ingest_parts ADD CONSTRAINT ingest_parts_stage_check
  CHECK (stage IN ('awaiting-ocr', 'parsed', 'chunked', 'embedded', 'stored'));
ALTER TABLE ingest_parts ADD COLUMN ocr_page integer;

-- Pages of a document version that could not be read (too large, unreadable, past OCR_MAX_PAGES),
-- and why: the document completes with the rest and says which pages are missing.
CREATE TABLE missing_pages (
  document_id uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  content_hash text NOT NULL,
  page integer NOT NULL,
  reason text NOT NULL,
  PRIMARY KEY (document_id, content_hash, page)
);
