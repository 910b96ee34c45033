-- How OCR read each page of a document version it read (a scanned PDF page, a picture): its mean
-- confidence (0–100, by characters) and the model's direction (horizontal, or vertical for a
-- 縦書き page read again with jpn_vert), shown with the document so a doubtful page can be found.
CREATE TABLE ocr_readings (
  document_id uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  content_hash text NOT NULL,
  page integer NOT NULL,
  confidence real NOT NULL,
  direction text NOT NULL CHECK (direction IN ('horizontal', 'vertical')),
  PRIMARY KEY (document_id, content_hash, page)
);
