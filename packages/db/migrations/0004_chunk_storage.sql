-- Keep chunk rows narrow for keyword scoring, which reads `terms` of every candidate: wide values
-- (the embedding, long text) move out of line once a row passes 1 kB, while `terms` (MAIN) stays
-- inline and uncompressed unless nothing else can go.
ALTER TABLE chunks SET (toast_tuple_target = 1024);
ALTER TABLE chunks ALTER COLUMN terms SET STORAGE MAIN;
