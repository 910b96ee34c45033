import { access } from 'node:fs/promises'
import { isAbsolute, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineFragment, defineProcessConfig } from './define-config.ts'
import { boolean, integer, oneOf, optionalText, text } from './env-values.ts'

/** What the test suites read: which database backend to run against and where the shared assets are. */
export const testConfig = defineProcessConfig('tests', {
  test: defineFragment({
    shape: {
      // native: a real Postgres with pgvector (CI); pglite: an in-process PGlite served over the wire.
      TEST_DB_BACKEND: oneOf(['native', 'pglite'] as const, 'native'),
      TEST_DATABASE_URL: text('postgres://postgres@127.0.0.1:5432/test'),
      TEST_REDIS_URL: text('redis://127.0.0.1:6379'),
      // Shared evaluation data and models (default: `shared/` beside the repository); tests that
      // need them skip with a message when it is absent.
      SHARED_DIR: text(fileURLToPath(new URL('../../../../shared', import.meta.url))),
      // The browser the web app test drives (Debian's chromium package; .ci/run installs it).
      CHROMIUM_PATH: text('/usr/bin/chromium'),
      // CI=true (.ci/run): what a test needs must be there; a missing asset fails instead of skipping.
      CI: boolean(false),
      // A folder: each integration file writes there the SQL it sent to the test database, from
      // which `pnpm test` chooses the files the PGlite pass runs (docs/testing.md). Unset: nothing recorded.
      TEST_SQL_LOG: optionalText(),
      // Set by vitest in each of its workers (1…maxWorkers): which of the run's PGlite servers is this worker's.
      VITEST_POOL_ID: integer(1, { min: 1 }),
    },
    read: (env) => ({
      dbBackend: env.TEST_DB_BACKEND,
      databaseUrl: env.TEST_DATABASE_URL,
      redisUrl: env.TEST_REDIS_URL,
      sharedDir: env.SHARED_DIR,
      chromiumPath: env.CHROMIUM_PATH,
      ci: env.CI,
      sqlLog: env.TEST_SQL_LOG,
      poolId: env.VITEST_POOL_ID,
    }),
  }),
})

export type TestConfig = ReturnType<typeof testConfig.parse>['test']

/**
 * The one policy for what a test needs from the machine (a shared file, a program, a capability
 * such as network namespaces): there, the test runs; missing, it is skipped with the reason on a
 * developer's machine, and the run fails under CI=true, which must not pass with tests skipped.
 * Returns whether it is there (skip the tests when not).
 */
export function requireTestAsset(
  config: Pick<TestConfig, 'ci'>,
  what: string,
  found: boolean,
  /** What to do about it (install it, set a variable). */
  hint: string,
): boolean {
  if (found) return true
  const message = `${what} is missing (${hint})`
  if (config.ci) throw new Error(`${message}: with CI=true tests that need it fail instead of skipping`)
  console.warn(`skipping tests that need it: ${message}`)
  return false
}

/** Whether a file a test needs (under SHARED_DIR, or an absolute path such as Chromium) is there, by that policy. */
export async function findTestAsset(
  config: TestConfig,
  path: string,
): Promise<{ path: string; found: boolean }> {
  const full = isAbsolute(path) ? path : join(config.sharedDir, path)
  const exists = await access(full).then(
    () => true,
    () => false,
  )
  return { path: full, found: requireTestAsset(config, full, exists, 'set SHARED_DIR / CHROMIUM_PATH') }
}
