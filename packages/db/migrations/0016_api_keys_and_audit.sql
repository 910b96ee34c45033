-- Keys a team hands out: each with a role and the collections it may see (NULL: all of them).
-- Only the key's SHA-256 is kept (the key itself is shown once, at creation): a key is 32 random
-- bytes, so a fast hash is as safe as a slow one and lets the lookup be one index probe whatever
-- the number of keys. API_KEY(S) from the environment stay the bootstrap admin and are not here.
CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'editor', 'reader')),
  collections text[],
  key_hash text NOT NULL UNIQUE,
  -- The first characters, to tell keys apart in a list without revealing them.
  key_prefix text NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  last_used_at timestamptz
);

-- Who did what, when, from where, as which key or user (never the key itself).
CREATE TABLE audit_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  actor text NOT NULL,
  role text NOT NULL,
  action text NOT NULL,
  target text,
  collection text,
  address text,
  detail jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX audit_log_at_idx ON audit_log (at);
CREATE INDEX audit_log_actor_at_idx ON audit_log (actor, at);
