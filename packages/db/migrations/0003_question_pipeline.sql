-- RAG-Fusion: the rephrasings the LLM wrote (null until written; empty when it could not).
ALTER TABLE question_jobs ADD COLUMN queries text[];
-- [n] markers of the answer mapped to the sources they cite.
ALTER TABLE question_jobs ADD COLUMN citations jsonb NOT NULL DEFAULT '[]';
-- The sweeper that fails questions stuck in a stage looks only at unfinished ones.
CREATE INDEX question_jobs_unfinished_idx ON question_jobs (updated_at) WHERE status NOT IN ('done', 'failed');
