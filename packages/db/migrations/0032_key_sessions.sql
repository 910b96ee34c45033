-- A browser signed in with an API key: its cookie holds a random session token, never the key
-- (a cookie is readable by whoever gets the browser's disk, sent to every port of the host, and
-- outlives the page). Only the token's SHA-256 is here, with the key's own SHA-256 — what the key
-- table and API_KEY's digests are looked up by — so revoking the key, or removing it from
-- API_KEY, ends its sessions at the next request. `principal_id` is whom the key stood for at
-- sign-in: a session whose key now stands for someone else is refused, not silently re-pointed.
CREATE TABLE key_sessions (
  id uuid PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  key_hash text NOT NULL,
  principal_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  ended_at timestamptz
);
