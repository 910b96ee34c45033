-- Sections whose text was read by OCR from a picture of it (a scanned page, an image): shown as
-- such, since they may hold misreadings.
ALTER TABLE sections ADD COLUMN ocr boolean NOT NULL DEFAULT false;
-- A document fetched from a web page: its address, so re-indexing fetches it again.
ALTER TABLE documents ADD COLUMN source_url text;
