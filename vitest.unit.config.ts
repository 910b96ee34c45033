import { readdirSync, readFileSync } from 'node:fs'
import { defineConfig } from 'vitest/config'

// `pnpm test:unit`: every test that needs no Postgres, Redis or browser, in one fast run. A test
// needs services when it reaches them through a fixture that opens them (the testing modules of
// the packages that own the database, the queues, ingestion, the HTTP API and questions) or
// opens them itself; everything else is a unit test and runs here as well as in `pnpm test`.
const SERVICE_FIXTURES =
  /from '(@rag\/(db|queue|ingest|http-api|questions|process-supervisor)\/testing|\.\.?\/testing\.ts)'|createPool|createProducer|chromium|redis-server|TEST_DATABASE_URL|TEST_REDIS_URL/

const testFiles = ['apps', 'packages'].flatMap((root) =>
  readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.test.ts') && !path.includes('node_modules') && path.includes('/src/'))
    .map((path) => `${root}/${path}`),
)

export const unitTestFiles = testFiles.filter((path) => !SERVICE_FIXTURES.test(readFileSync(path, 'utf8')))

export default defineConfig({
  test: { include: unitTestFiles, testTimeout: 60_000, hookTimeout: 60_000 },
})
