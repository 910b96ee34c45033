-- Whether the documents answer a question is judged from several signals of its passages
-- (evidence, what only the best passage covers, the asked kind near it, …) by a fitted model: its
-- probability and the signals are kept with the question, so a refusal can be read and checked.
ALTER TABLE questions ADD COLUMN answerability jsonb;
