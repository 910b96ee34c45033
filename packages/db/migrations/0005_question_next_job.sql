-- The job a question waits on (queue and payload), written before it is enqueued: Postgres is the
-- source of truth, so a question whose job Redis lost is enqueued again from here.
ALTER TABLE question_jobs ADD COLUMN next_job jsonb;
