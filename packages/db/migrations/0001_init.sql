-- Documents: Postgres is the source of truth for their status, so losing Redis loses nothing.
CREATE TABLE documents (
  id uuid PRIMARY KEY,
  collection text NOT NULL DEFAULT 'default',
  filename text NOT NULL,
  source_type text NOT NULL,
  stored_path text NOT NULL,
  content_hash text NOT NULL,
  size_bytes bigint NOT NULL,
  tags text[] NOT NULL DEFAULT '{}',
  status text NOT NULL DEFAULT 'queued'
    CHECK (status IN ('queued', 'parsing', 'chunking', 'embedding', 'storing', 'ready', 'failed')),
  progress real NOT NULL DEFAULT 0 CHECK (progress >= 0 AND progress <= 1),
  error text,
  chunk_count integer NOT NULL DEFAULT 0,
  -- The content version search sees; a re-upload is ingested beside it and swapped in when ready.
  active_hash text,
  -- Parts the parser cut the document into (fan-out); NULL while parsing.
  parts_total integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (collection, filename)
);
CREATE INDEX documents_collection_idx ON documents (collection, created_at DESC);
-- The reconciler scans only unfinished documents.
CREATE INDEX documents_unfinished_idx ON documents (updated_at) WHERE status NOT IN ('ready', 'failed');

-- Parent sections: the larger text handed to the LLM for the small chunks found by search.
CREATE TABLE sections (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  document_id uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  content_hash text NOT NULL,
  -- Order in the document: part * 100000 + position in the part.
  ordinal integer NOT NULL,
  source_id text NOT NULL,
  heading text,
  text text NOT NULL,
  UNIQUE (document_id, content_hash, ordinal)
);

-- Chunks: what search ranks. The embedding column is added by the embedding space (its size
-- follows the configured model), see embedding-space.ts.
CREATE TABLE chunks (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  document_id uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  content_hash text NOT NULL,
  section_id bigint NOT NULL REFERENCES sections (id) ON DELETE CASCADE,
  -- Position inside the parent section.
  chunk_index integer NOT NULL,
  source_id text NOT NULL,
  text text NOT NULL,
  text_hash text NOT NULL,
  -- Keyword index data: the chunk's normalised terms (Japanese-aware tokenizer) and their count.
  terms text[] NOT NULL DEFAULT '{}',
  term_count integer NOT NULL DEFAULT 0,
  embedding_status text NOT NULL DEFAULT 'pending' CHECK (embedding_status IN ('pending', 'done')),
  UNIQUE (section_id, chunk_index)
);
CREATE INDEX chunks_terms_idx ON chunks USING gin (terms);
CREATE INDEX chunks_document_idx ON chunks (document_id, content_hash);
CREATE INDEX chunks_pending_embedding_idx ON chunks (id) WHERE embedding_status = 'pending';

-- Work in progress of the ingestion stages, one row per part of a document version. Each stage
-- leaves its result here, so a retry or a restarted pipeline skips what is already done.
CREATE TABLE ingest_parts (
  document_id uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  content_hash text NOT NULL,
  part integer NOT NULL,
  stage text NOT NULL CHECK (stage IN ('parsed', 'chunked', 'embedded', 'stored')),
  sections jsonb,
  chunked jsonb,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (document_id, content_hash, part)
);

-- Questions asked through POST /ask: the state the client polls.
CREATE TABLE question_jobs (
  id uuid PRIMARY KEY,
  question text NOT NULL,
  options jsonb NOT NULL DEFAULT '{}',
  status text NOT NULL DEFAULT 'queued'
    CHECK (status IN ('queued', 'retrieving', 'reranking', 'generating', 'done', 'failed')),
  answer text,
  refused boolean,
  degraded text[] NOT NULL DEFAULT '{}',
  sources jsonb NOT NULL DEFAULT '[]',
  timings jsonb NOT NULL DEFAULT '{}',
  usage jsonb,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX question_jobs_expires_idx ON question_jobs (expires_at);

-- Which embedding model (and so which vector size) the stored vectors belong to: one row at most.
CREATE TABLE embedding_space (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  model text NOT NULL,
  dim integer NOT NULL CHECK (dim > 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
