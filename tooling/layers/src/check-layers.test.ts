import { describe, expect, it } from 'vitest'
import { checkLayers, isTestCode } from './check-layers.ts'

const apps = new Set(['@rag/web', '@rag/cli'])
const rules = (files: Record<string, string>) =>
  checkLayers(
    Object.entries(files).map(([path, text]) => ({ path, text })),
    apps,
  ).map(({ path, rule }) => `${path} ${rule}`)

describe('the layering rules', () => {
  it('refuse an app importing another app, by package or by path', () => {
    expect(
      rules({
        'apps/cli/src/a.ts': "import { x } from '@rag/web'\nimport { y } from '../../web/src/y.ts'",
        'apps/cli/src/b.ts': "import { z } from './z.ts'",
      }),
    ).toEqual(['apps/cli/src/a.ts app-imports-app', 'apps/cli/src/a.ts app-imports-app'])
  })

  it('refuse a package importing an app or naming a path inside apps/', () => {
    expect(
      rules({
        'packages/config/src/a.ts': "import { x } from '@rag/cli'",
        'packages/config/src/b.ts': "const dir = new URL('../../../apps/web/dist', import.meta.url)",
      }),
    ).toEqual([
      'packages/config/src/a.ts package-imports-app',
      'packages/config/src/b.ts package-reaches-into-apps',
    ])
  })

  it('refuse production code importing a test helper, and let tests and helpers do it', () => {
    expect(
      rules({
        'packages/a/src/prod.ts': "import { t } from '@rag/db/testing'\nimport { u } from './testing.ts'",
        'packages/a/src/prod.test.ts': "import { t } from '@rag/db/testing'",
        'packages/a/src/testing/fixture.ts': "import { t } from '@rag/queue/testing'",
        'apps/bench/src/bench.ts': "import { t } from '@rag/http-api/testing'",
      }),
    ).toEqual([
      'packages/a/src/prod.ts production-imports-test-helper',
      'packages/a/src/prod.ts production-imports-test-helper',
    ])
  })

  it('know test code by name and folder', () => {
    expect(isTestCode('packages/a/src/x.test.ts')).toBe(true)
    expect(isTestCode('packages/a/src/testing.ts')).toBe(true)
    expect(isTestCode('packages/a/src/testing/helper.ts')).toBe(true)
    expect(isTestCode('packages/http-api/src/test-gateway.ts')).toBe(true)
    expect(isTestCode('packages/a/src/contest.ts')).toBe(false)
  })
})
