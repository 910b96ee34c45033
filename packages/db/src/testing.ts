import { randomBytes } from 'node:crypto'
import { processEnvironment } from '@rag/config'
import { type TestConfig, testConfig } from '@rag/config/testing'
import { createPool, type Pool } from './create-pool.ts'
import { startEmbeddedPostgres } from './embedded-postgres.ts'
import { type MigrateOptions, migrate } from './migrate.ts'
import { quoteIdentifier } from './sql.ts'

export { initCluster, type PrivatePostgres, postgresBin, startPrivatePostgres } from './private-postgres.ts'
export { type ReplicatedPostgres, startReplicatedPostgres } from './replicated-postgres.ts'
export { keywordStatsMismatches } from './testing/keyword-stats-check.ts'
export { startTcpProxy, type TcpProxy } from './testing/tcp-proxy.ts'

export type DbBackend = TestConfig['dbBackend']

export interface TestDatabase {
  backend: DbBackend
  /** Connection string and schema to hand to child processes (DATABASE_URL, DB_SCHEMA). */
  url: string
  schema: string
  pool: Pool
  /** Drops the schema (native) or the whole in-memory database (PGlite) and closes everything. */
  drop(): Promise<void>
}

export function readTestConfig(): TestConfig {
  return testConfig.parse(processEnvironment()).test
}

/**
 * A fresh, migrated database for one test file: a new schema in the native Postgres, or a new
 * in-memory PGlite served over the wire protocol, as TEST_DB_BACKEND says (or as `backend` forces).
 */
export async function createTestDatabase(
  label: string,
  {
    backend = readTestConfig().dbBackend,
    migrateOptions = {},
    migrated = true,
    url: given,
  }: {
    backend?: DbBackend
    /** A Postgres of the test's own (startPrivatePostgres) instead of the shared one. */
    url?: string
    migrateOptions?: Omit<MigrateOptions, 'schema'>
    migrated?: boolean
  } = {},
): Promise<TestDatabase> {
  const schema = `t_${label.replace(/\W+/g, '_').toLowerCase().slice(0, 30)}_${randomBytes(4).toString('hex')}`
  const embedded = backend === 'pglite' && !given ? await startEmbeddedPostgres() : undefined
  const url = embedded?.url ?? given ?? readTestConfig().databaseUrl
  const pool = createPool({ url, schema, max: 5 })
  if (migrated) await migrate(pool, { ...migrateOptions, schema })
  return {
    backend,
    url,
    schema,
    pool,
    drop: async () => {
      try {
        if (!embedded) await pool.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`)
      } finally {
        await pool.end()
        await embedded?.close()
      }
    },
  }
}
