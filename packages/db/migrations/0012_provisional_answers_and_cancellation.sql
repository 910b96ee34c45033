-- A question answered by an LLM first gets the extractive answer (the sentence that answers, with
-- its citation) as soon as retrieval ends, marked provisional until the generated one replaces it.
ALTER TABLE questions ADD COLUMN provisional boolean NOT NULL DEFAULT false;
-- A question can be cancelled (its client gone, DELETE /ask/:id): it ends, and frees the LLM.
ALTER TABLE questions DROP CONSTRAINT IF EXISTS question_jobs_status_check;
ALTER TABLE questions ADD CONSTRAINT questions_status_check
  CHECK (status IN ('queued', 'retrieving', 'reranking', 'generating', 'done', 'failed', 'cancelled'));
-- The unfinished questions' index names every finished state.
DROP INDEX questions_unfinished_idx;
CREATE INDEX questions_unfinished_idx ON questions (updated_at)
  WHERE status NOT IN ('done', 'failed', 'cancelled');
