import { randomBytes } from 'node:crypto'
import { processEnvironment } from '@rag/config'
import { type TestConfig, testConfig } from '@rag/config/testing'
import { inject } from 'vitest'
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
  /** Drops the schema (or the whole in-memory database of its own) and closes everything. */
  drop(): Promise<void>
}

export function readTestConfig(): TestConfig {
  return testConfig.parse(processEnvironment()).test
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's PGlite servers (testing/pglite-servers-setup.ts): the worker with VITEST_POOL_ID n uses the n-th. */
    pgliteUrls: string[]
  }
}

/** This vitest worker's PGlite server (pglite-servers-setup.ts), when the run started them. */
function workerPglite(config: TestConfig): string | undefined {
  const urls = inject('pgliteUrls') ?? []
  return urls[(config.poolId - 1) % Math.max(urls.length, 1)]
}

/**
 * A fresh, migrated database for one test file: a new schema in the native Postgres, or in this
 * worker's in-memory PGlite (a PGlite of its own when the run started none), as TEST_DB_BACKEND
 * says (or as `backend` forces).
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
  const config = readTestConfig()
  const shared = backend === 'pglite' && !given ? workerPglite(config) : undefined
  const embedded = backend === 'pglite' && !given && !shared ? await startEmbeddedPostgres() : undefined
  const url = embedded?.url ?? shared ?? given ?? config.databaseUrl
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
