-- What people said of answers (POST /ask/{id}/feedback). A snapshot of the question, its answer
-- and its sources is kept with the verdict: questions expire, feedback is evaluation material.
CREATE TABLE question_feedback (
  id uuid PRIMARY KEY,
  question_id uuid REFERENCES questions (id) ON DELETE SET NULL,
  owner text NOT NULL,
  given_by text NOT NULL,
  collections text[] NOT NULL DEFAULT '{}',
  question text NOT NULL,
  answer text,
  refused boolean,
  sources jsonb NOT NULL DEFAULT '[]',
  verdict text NOT NULL CHECK (verdict IN ('up', 'down')),
  reason text CHECK (reason IN ('wrong-source', 'should-have-refused', 'should-have-answered', 'incomplete')),
  comment text,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- One verdict per question and asker: saying it again replaces it.
  UNIQUE (question_id, owner)
);
CREATE INDEX question_feedback_created_idx ON question_feedback (created_at DESC);
CREATE INDEX question_feedback_collections_idx ON question_feedback USING gin (collections);
