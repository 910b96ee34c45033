-- A part step asks whether any part of its document is still at the stage it left (the document's
-- status moves on only when the last one leaves it): answered from this index, not a scan of
-- every part of a 1,000-page document on each step.
CREATE INDEX ingest_parts_stage_idx ON ingest_parts (document_id, content_hash, stage);
