import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Logger } from '@rag/log'
import { type Pool, withTransaction } from './create-pool.ts'
import { type EmbeddingSpace, ensureEmbeddingSpace } from './embedding-space.ts'
import { quoteIdentifier } from './sql.ts'

export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url))

// Every process migrates at start; this lock makes concurrent starts take turns.
const MIGRATION_LOCK = 727_001

export interface Migration {
  version: string
  name: string
  sql: string
  checksum: string
}

export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((file) => /^\d{4}_[\w-]+\.sql$/.test(file)).sort()
  return Promise.all(
    files.map(async (file) => {
      const sql = await readFile(join(dir, file), 'utf8')
      return {
        version: file.slice(0, 4),
        name: file.slice(5, -4),
        sql,
        checksum: createHash('sha256').update(sql).digest('hex'),
      }
    }),
  )
}

export class PgvectorMissingError extends Error {
  constructor(cause: unknown) {
    super(
      'The pgvector extension is not available in this Postgres. Use the pgvector/pgvector image ' +
        '(docker compose), or on Debian/Ubuntu run scripts/install-pgvector.sh.',
      { cause },
    )
    this.name = 'PgvectorMissingError'
  }
}

export interface MigrateOptions {
  schema?: string
  embedding?: EmbeddingSpace | null
  resetEmbeddings?: boolean
  logger?: Logger
  migrations?: Migration[]
}

/** Applies pending migrations and the embedding space, all or nothing. Returns the versions applied. */
export async function migrate(pool: Pool, options: MigrateOptions = {}): Promise<string[]> {
  const { schema = 'public', embedding = null, resetEmbeddings = false, logger } = options
  const migrations = options.migrations ?? (await loadMigrations())
  const applied = await withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
    try {
      await client.query('CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public')
    } catch (error) {
      throw new PgvectorMissingError(error)
    }
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`)
    await client.query(`SET LOCAL search_path TO ${quoteIdentifier(schema)}, public`)
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY,
      name text NOT NULL,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`)
    const { rows } = await client.query<{ version: string; checksum: string }>(
      'SELECT version, checksum FROM schema_migrations',
    )
    const done = new Map(rows.map((row) => [row.version, row.checksum]))
    const newlyApplied: string[] = []
    for (const migration of migrations) {
      const checksum = done.get(migration.version)
      if (checksum !== undefined) {
        // An applied migration that was edited afterwards would leave databases disagreeing silently.
        if (checksum !== migration.checksum) {
          throw new Error(`migration ${migration.version}_${migration.name} was changed after it was applied`)
        }
        continue
      }
      await client.query(migration.sql)
      await client.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        migration.checksum,
      ])
      newlyApplied.push(migration.version)
    }
    await ensureEmbeddingSpace(client, embedding, { reset: resetEmbeddings })
    return newlyApplied
  })
  // The range, not the list: a new database applies every one, and a list of 27 is a paragraph.
  if (applied.length > 0)
    logger?.info(
      { schema, count: applied.length, first: applied[0], last: applied.at(-1) },
      'applied migrations',
    )
  return applied
}
