-- Sources: places a team keeps documents (a web site, a Git repository, an S3 bucket, a WebDAV
-- folder) kept in sync with a collection. Postgres holds what each sync saw, so a lost Redis or a
-- worker's death loses nothing: the next sync compares the place with these rows.
CREATE TABLE sources (
  id uuid PRIMARY KEY,
  name text NOT NULL UNIQUE,
  kind text NOT NULL CHECK (kind IN ('web', 'git', 's3', 'webdav')),
  collection text NOT NULL,
  -- Where and what (URL, ref, bucket, prefix, depth…): never a secret.
  settings jsonb NOT NULL,
  -- Tokens, passwords and keys, AES-256-GCM under SOURCES_SECRET (never returned, never logged).
  credentials text,
  -- Seconds between scheduled syncs; null: only when asked.
  interval_seconds integer CHECK (interval_seconds IS NULL OR interval_seconds >= 60),
  next_sync_at timestamptz,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sources_due_idx ON sources (next_sync_at) WHERE next_sync_at IS NOT NULL;

CREATE TABLE source_syncs (
  id uuid PRIMARY KEY,
  source_id uuid NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('running', 'done', 'partial', 'failed')),
  trigger text NOT NULL,
  seen integer NOT NULL DEFAULT 0,
  added integer NOT NULL DEFAULT 0,
  changed integer NOT NULL DEFAULT 0,
  unchanged integer NOT NULL DEFAULT 0,
  deleted integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  -- Files of types no parser reads (listed, not failures).
  ignored integer NOT NULL DEFAULT 0,
  -- The first failures with their reasons (the rest counted).
  failures jsonb NOT NULL DEFAULT '[]',
  error text,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX source_syncs_source_idx ON source_syncs (source_id, started_at DESC);

-- What a source held at its last sync: an item (a path, a URL, an object key), the version the
-- place gave it (ETag, blob id, Last-Modified), and the document it became.
CREATE TABLE source_items (
  source_id uuid NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
  item_key text NOT NULL,
  version text NOT NULL,
  document_id uuid REFERENCES documents (id) ON DELETE SET NULL,
  -- What a later sync needs without reading the item again (a web page's links).
  extra jsonb,
  synced_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (source_id, item_key)
);
