-- People signed in through OpenID Connect. A session is a random token kept in the browser's
-- HttpOnly cookie; only its SHA-256 is here. The role and collections are what the provider's
-- claim mapped to at sign-in (a user whose groups change gets the new grants at the next sign-in).
CREATE TABLE user_sessions (
  id uuid PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  subject text NOT NULL,
  name text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'editor', 'reader')),
  collections text[],
  groups text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  ended_at timestamptz
);
CREATE INDEX user_sessions_subject_idx ON user_sessions (subject);

-- A sign-in under way: what the browser's callback must match (state), and the secrets the code
-- exchange needs (PKCE verifier, nonce). Taken once; older than ten minutes, gone.
CREATE TABLE sign_in_requests (
  id text PRIMARY KEY,
  state text NOT NULL,
  nonce text NOT NULL,
  code_verifier text NOT NULL,
  return_to text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
