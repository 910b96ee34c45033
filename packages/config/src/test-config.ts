import { access } from 'node:fs/promises'
import { isAbsolute, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineFragment, defineProcessConfig } from './define-config.ts'
import { boolean, oneOf, text } from './env-values.ts'

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
    },
    read: (env) => ({
      dbBackend: env.TEST_DB_BACKEND,
      databaseUrl: env.TEST_DATABASE_URL,
      redisUrl: env.TEST_REDIS_URL,
      sharedDir: env.SHARED_DIR,
      chromiumPath: env.CHROMIUM_PATH,
      ci: env.CI,
    }),
  }),
})

export type TestConfig = ReturnType<typeof testConfig.parse>['test']

/**
 * Whether a file a test needs (under SHARED_DIR, or an absolute path such as Chromium) is there.
 * Absent, the test skips with a message on a developer's machine, but with CI=true this throws:
 * a CI run must not pass with those tests skipped.
 */
export async function findTestAsset(
  config: TestConfig,
  path: string,
): Promise<{ path: string; found: boolean }> {
  const full = isAbsolute(path) ? path : join(config.sharedDir, path)
  const found = await access(full).then(
    () => true,
    () => false,
  )
  if (!found && config.ci)
    throw new Error(`${full} is missing: with CI=true tests that need it fail instead of skipping`)
  if (!found) console.warn(`skipping tests that need ${full} (set SHARED_DIR / CHROMIUM_PATH)`)
  return { path: full, found }
}
