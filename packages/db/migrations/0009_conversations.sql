-- Conversations: threads of questions that belong to the API key that made them. Each turn is a
-- question (question_jobs) of the thread; a thread's turns are kept until the thread is deleted.
CREATE TABLE conversations (
  id uuid PRIMARY KEY,
  -- Who made it: a fingerprint of its API key ('local' when the gateway has no keys).
  owner text NOT NULL,
  title text NOT NULL,
  -- Questions of the thread search this collection only (NULL: all).
  collection text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX conversations_owner_idx ON conversations (owner, updated_at DESC);

ALTER TABLE question_jobs ADD COLUMN conversation_id uuid REFERENCES conversations (id) ON DELETE CASCADE;
-- The earlier turns the question follows (oldest first, [{question, searchQuery, answer}]): from
-- its thread, or from the messages of an OpenAI-style request.
ALTER TABLE question_jobs ADD COLUMN history jsonb NOT NULL DEFAULT '[]';
-- What retrieval searched for: a follow-up rewritten to stand alone (NULL: the question itself).
ALTER TABLE question_jobs ADD COLUMN search_query text;
CREATE INDEX question_jobs_conversation_idx ON question_jobs (conversation_id, created_at)
  WHERE conversation_id IS NOT NULL;
