import type { Logger } from '@rag/log'
import pg from 'pg'
import { quoteIdentifier } from './sql.ts'

export type Pool = pg.Pool
export type PoolClient = pg.PoolClient

export interface PoolOptions {
  url: string
  /** Our tables live here; pgvector's types stay in public, hence "schema, public". */
  schema?: string
  max?: number
  logger?: Logger
  /** Seconds to wait for a connection before failing (a missing database should not hang a process). */
  connectTimeoutMs?: number
}

export function createPool({
  url,
  schema = 'public',
  max = 10,
  logger,
  connectTimeoutMs = 10000,
}: PoolOptions): Pool {
  const searchPath = `SET search_path TO ${quoteIdentifier(schema)}, public`
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: connectTimeoutMs,
    // Awaited before the new connection is handed out: its first query already sees our schema,
    // and a connection that cannot set it fails the checkout instead of querying the wrong tables.
    onConnect: async (client) => {
      await client.query(searchPath)
    },
  })
  // A client losing its connection (database restart) must not crash the process: the pool
  // handles idle ones; one checked out has no listener of the pool's, so it gets one of its own
  // for its whole life (its query in progress is rejected and retried by the job as usual).
  pool.on('error', (error) => logger?.warn({ err: error }, 'idle database connection failed'))
  pool.on('connect', (client) => {
    client.on('error', (error) => logger?.warn({ err: error }, 'database connection failed'))
  })
  return pool
}

/** Runs fn in a transaction on one connection; rolls back on any error. */
export async function withTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    const result = await fn(client)
    await client.query('COMMIT')
    return result
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw error
  } finally {
    client.release()
  }
}
