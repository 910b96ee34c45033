-- One name per concept: a question (asked, answered, with its sources) is a "question" everywhere,
-- in the API, the code and here. Its next job is derived from its state (nextStep), as a
-- document's is from its parts, so it is no longer stored.
ALTER TABLE question_jobs RENAME TO questions;
ALTER INDEX question_jobs_expires_idx RENAME TO questions_expires_idx;
ALTER INDEX question_jobs_unfinished_idx RENAME TO questions_unfinished_idx;
ALTER INDEX question_jobs_conversation_idx RENAME TO questions_conversation_idx;
ALTER TABLE questions DROP COLUMN next_job;
