-- New chunk terms go straight into the GIN index instead of its pending list: every keyword query
-- scans the whole pending list, only VACUUM merges it (autovacuum may be off; PGlite has none), and
-- after a large ingest the whole index could be pending (p50 58-65 ms → 14 ms at 10k chunks once
-- merged). What is pending now is merged here.
ALTER INDEX chunks_terms_idx SET (fastupdate = off);
SELECT gin_clean_pending_list('chunks_terms_idx'::regclass);
