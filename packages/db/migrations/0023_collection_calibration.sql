-- A collection's own refusal judgement, fitted on its team's questions (`rag calibrate`): the
-- weights and bias over the answerability signals, and the cross-validated report of the fit.
-- Questions searching that collection alone are judged by it instead of the shipped model.
CREATE TABLE collection_calibration (
  collection text PRIMARY KEY,
  model jsonb NOT NULL,
  report jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text
);
