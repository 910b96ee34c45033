-- An asker's answers are handed to the LLM one at a time (answer-turns.ts in @rag/questions): the
-- one handed over holds its asker's turn (llm_turn) until it leaves 'generating'; the rest wait
-- in Postgres. The unique index makes the turn one per asker however many stages hand on at once
-- (questions without an asker, the evaluation's, are one asker: NULLS NOT DISTINCT).
ALTER TABLE questions ADD COLUMN llm_turn boolean NOT NULL DEFAULT false;
CREATE UNIQUE INDEX questions_llm_turn_idx ON questions (owner) NULLS NOT DISTINCT
  WHERE status = 'generating' AND llm_turn;
CREATE INDEX questions_generating_owner_idx ON questions (owner, created_at, id) WHERE status = 'generating';
