import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { LongTailFirst } from './tooling/test-runner/src/long-tail-first.ts'

// Tests say what they are by name: `*.test.ts` is a unit test (no service, no child process, no
// file from outside the repository: it runs anywhere, at once); `*.int.test.ts` is an integration
// test (Postgres, Redis, child processes, a browser, tesseract, the shared models and data).
// `pnpm test` runs every file of every package in this one vitest run (docs/testing.md);
// `pnpm test:unit` runs the unit project alone and passes with Postgres and Redis stopped.
// This file is the one place that sets timeouts, workers and isolation.
const ignored = ['**/node_modules/**', '**/dist/**']
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

// The long tail: files of a minute or so each (real processes killed and restarted, a platform
// brought up, a 60-page scan, a browser walking a whole view). `long` is its own project so the
// sequencer (tooling/test-runner) starts them first, beside the rest, instead of last, alone.
// `pnpm test` prints the slowest files at its end: one that climbs past ~25 s belongs here, unless
// it mostly waits (its CPU well under its time: the sign-in walk, 59 s for 31 s of CPU) — that one
// runs among the rest, where it leaves its worker's core to the others, and the lanes end together.
export const longTail = [
  'apps/supervisor/src/*-faults.int.test.ts',
  'apps/supervisor/src/many-hosts.int.test.ts',
  'apps/supervisor/src/platform.int.test.ts',
  'apps/supervisor/src/sentinel-start.int.test.ts',
  'apps/cli/src/rag-program.int.test.ts',
  'apps/web/src/sources.int.test.ts',
  'apps/web/src/web-app.int.test.ts',
  'apps/web/src/lead-hour.int.test.ts',
  'packages/http-api/src/readme-examples.int.test.ts',
  'packages/parsers/src/ocr.int.test.ts',
  'packages/ingest/src/scanned-book.int.test.ts',
  'packages/ingest/src/hostile-files.int.test.ts',
  'packages/embeddings/src/model-endpoint.int.test.ts',
  'packages/sources/src/git-remote.int.test.ts',
]

// Integration files share their worker's module cache (isolate: false): importing the gateway's
// module graph cost 3.6 s per file, 217 s of http-api's 668. Nothing in a test may therefore
// rely on a module being fresh; fixtures of scope 'worker' are built once per worker.
const integration = {
  exclude: ignored,
  isolate: false,
  testTimeout: 120_000,
  hookTimeout: 120_000,
  // State that arrives asynchronously (a page's next render, a job's end) is waited for with
  // expect.poll, never read once; on a loaded machine it can take seconds, not vitest's default 1.
  expect: { poll: { timeout: 30_000 } },
  setupFiles: [here('./packages/db/src/testing/sql-recording-setup.ts')],
  globalSetup: [here('./packages/db/src/testing/pglite-servers-setup.ts')],
}

export default defineConfig({
  test: {
    // One worker per core of the machine CI runs on (see docs/testing.md for what was measured).
    maxWorkers: 2,
    sequence: { sequencer: LongTailFirst },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['**/src/**/*.test.{ts,tsx}'],
          exclude: [...ignored, '**/*.int.test.ts'],
          isolate: false,
          testTimeout: 30_000,
        },
      },
      { test: { ...integration, name: 'long', include: longTail.map((path) => `**/${path}`) } },
      {
        test: {
          ...integration,
          name: 'integration',
          include: ['**/src/**/*.int.test.ts'],
          exclude: [...ignored, ...longTail.map((path) => `**/${path}`)],
        },
      },
    ],
  },
})
