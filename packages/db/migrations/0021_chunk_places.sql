-- Where a chunk stands in its document: its heading path (`context`, indexed and embedded with its
-- text: chunk terms and the embedding cache key already include it) and the boxes on the pages it
-- was read from (`regions`: [{page, x, y, width, height}], PDF points from the page's top-left),
-- what a viewer highlights. Null for chunks stored before, and for formats without pages.
ALTER TABLE chunks ADD COLUMN context text;
ALTER TABLE chunks ADD COLUMN regions jsonb;
