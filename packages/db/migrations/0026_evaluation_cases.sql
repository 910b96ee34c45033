-- A collection's own evaluation set: questions with the source that answers them, or none (the
-- documents do not say), made by reviewers from feedback (or added by hand).
CREATE TABLE evaluation_cases (
  id uuid PRIMARY KEY,
  collection text NOT NULL,
  question text NOT NULL,
  -- The source id that answers it (guide.pdf:p5); null: the collection must refuse it.
  expected_source text,
  feedback_id uuid REFERENCES question_feedback (id) ON DELETE SET NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (collection, question)
);
