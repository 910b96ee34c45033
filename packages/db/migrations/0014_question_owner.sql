-- Whose a question is: a fingerprint of the API key (or session) that asked it, never the key.
-- GET/DELETE /ask/:id and its event stream answer 404 to anyone else (a turn of one key's
-- conversation is not another key's to read). Questions from before this column have none and
-- stay readable as they were, until they expire.
ALTER TABLE questions ADD COLUMN owner text;
