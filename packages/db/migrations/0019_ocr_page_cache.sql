-- Text OCR has read, by the page image's SHA-256 and the reading settings (OcrPageCache in
-- @rag/parsers): re-indexing a scanned document, or a new version with a few pages changed,
-- reads only the pages that changed. Entries unused for OCR_CACHE_DAYS are dropped.
CREATE TABLE ocr_page_cache (
  key text PRIMARY KEY,
  text text NOT NULL,
  used_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ocr_page_cache_used_idx ON ocr_page_cache (used_at);
