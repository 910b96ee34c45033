import { defineConfig } from 'vitest/config'

// Tests say what they are by name: `*.test.ts` is a unit test (no service, no child process, no
// file from outside the repository: it runs anywhere, at once); `*.int.test.ts` is an integration
// test (Postgres, Redis, child processes, a browser, tesseract, the shared models and data).
// `pnpm test:unit` runs the unit project alone and passes with Postgres and Redis stopped; each
// package's own `vitest run` (turbo's `test`, CI) runs both kinds: vitest finds this file from
// a package's folder too, so the patterns are relative to wherever it runs.
const ignored = ['**/node_modules/**', '**/dist/**']

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['**/src/**/*.test.{ts,tsx}'],
          exclude: [...ignored, '**/*.int.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['**/src/**/*.int.test.ts'],
          exclude: ignored,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
})
