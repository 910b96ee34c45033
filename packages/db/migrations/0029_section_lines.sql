-- Where a section of a text file (Markdown, plain text) stands: its first and last line, 1-based
-- and inclusive, so a citation names the file and its lines (a Git repository's manual, L12–30).
-- Null for formats without lines (PDF pages, rows, HTML).
ALTER TABLE sections ADD COLUMN line_from integer, ADD COLUMN line_to integer;
