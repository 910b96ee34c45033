-- Evaluation runs kept for the Evaluation view (`pnpm eval --save`, or run from the web app): the
-- report (metrics, refusal sweep, time histograms per configuration) and, apart, one row per
-- question and configuration, read a page at a time (a run may hold 50,000 questions).
CREATE TABLE evaluation_runs (
  id uuid PRIMARY KEY,
  -- The collection whose evaluation set was run; null for a dataset run (`pnpm eval --dataset`).
  collection text,
  dataset text NOT NULL,
  status text NOT NULL CHECK (status IN ('running', 'done', 'failed')),
  error text,
  done integer NOT NULL DEFAULT 0,
  total integer NOT NULL DEFAULT 0,
  report jsonb,
  started_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX evaluation_runs_collection_idx ON evaluation_runs (collection, created_at DESC);

CREATE TABLE evaluation_run_questions (
  run_id uuid NOT NULL REFERENCES evaluation_runs (id) ON DELETE CASCADE,
  config text NOT NULL,
  ordinal integer NOT NULL,
  -- Right as scored at the configured threshold: the drill-down's "wrong only" filter.
  correct boolean NOT NULL,
  outcome jsonb NOT NULL,
  PRIMARY KEY (run_id, config, ordinal)
);
CREATE INDEX evaluation_run_questions_wrong_idx ON evaluation_run_questions (run_id, config, ordinal) WHERE NOT correct;
