import { describe, expect, it } from 'vitest'
import {
  checkLayers,
  checkPackages,
  checkTestSkips,
  isTestCode,
  type WorkspacePackage,
} from './check-layers.ts'

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

  it('see side-effect and dynamic imports too', () => {
    expect(
      rules({
        'apps/cli/src/a.ts': "import '../../web/src/setup.ts'\nconst m = await import('@rag/web')",
      }),
    ).toEqual(['apps/cli/src/a.ts app-imports-app', 'apps/cli/src/a.ts app-imports-app'])
  })

  it('know test code by name and folder', () => {
    expect(isTestCode('packages/a/src/x.test.ts')).toBe(true)
    expect(isTestCode('packages/a/src/testing.ts')).toBe(true)
    expect(isTestCode('packages/a/src/testing/helper.ts')).toBe(true)
    expect(isTestCode('packages/http-api/src/test-gateway.ts')).toBe(true)
    expect(isTestCode('packages/a/src/contest.ts')).toBe(false)
  })
})

describe('the package rules', () => {
  const pkg = (folder: string, name: string, declares: string[]): WorkspacePackage => ({
    folder,
    name,
    declares: new Set(declares),
  })
  const packages = [
    pkg('packages/keyword', '@rag/keyword', []),
    pkg('packages/answer-span', '@rag/answer-span', ['@rag/keyword']),
    pkg('packages/questions', '@rag/questions', ['@rag/answer-span', '@rag/db']),
    pkg('packages/db', '@rag/db', []),
  ]
  const found = (files: Record<string, string>, workspace = packages) =>
    checkPackages(
      Object.entries(files).map(([path, text]) => ({ path, text })),
      workspace,
    ).map(({ path, rule, message }) => `${path} ${rule}: ${message}`)

  it('refuse importing a workspace package the package.json does not declare', () => {
    expect(
      found({
        'packages/answer-span/src/a.ts':
          "import { x } from '@rag/keyword'\nimport { q } from '@rag/questions'",
        'packages/answer-span/src/b.ts': "import { y } from '@rag/answer-span'",
      }),
    ).toEqual([
      'packages/answer-span/src/a.ts undeclared-dependency: imports @rag/questions, which packages/answer-span/package.json does not declare',
      'packages/answer-span/src/a.ts service-free-imports-service: @rag/answer-span computes without services and may not import @rag/questions',
    ])
  })

  it('refuse a service-free package importing a service, declared or not', () => {
    const workspace = [...packages.slice(0, 1), pkg('packages/parsers', '@rag/parsers', ['@rag/db'])]
    expect(found({ 'packages/parsers/src/p.ts': "import { pool } from '@rag/db'" }, workspace)).toEqual([
      'packages/parsers/src/p.ts service-free-imports-service: @rag/parsers computes without services and may not import @rag/db',
    ])
  })

  it('refuse a cycle in the declared dependencies', () => {
    const cyclic = [
      ...packages.slice(0, 3),
      pkg('packages/keyword', '@rag/keyword', ['@rag/questions']),
    ].slice(1)
    expect(found({}, cyclic)).toEqual([
      'packages/questions/package.json dependency-cycle: @rag/answer-span → @rag/keyword → @rag/questions → @rag/answer-span',
    ])
  })
})

describe('the skip rule', () => {
  const found = (files: Record<string, string>) =>
    checkTestSkips(Object.entries(files).map(([path, text]) => ({ path, text }))).map(
      ({ path, rule }) => `${path} ${rule}`,
    )

  it('lets a test skip only on the test-asset policy (itself or through a helper) or the database backend', () => {
    expect(
      found({
        'packages/a/src/ok.int.test.ts':
          "const { found } = await findTestAsset(tests, 'x')\nit.skipIf(!found)('x', () => {})",
        'packages/a/src/helper.ts': 'export const hasIt = (await findTestAsset(tests, p)).found',
        'packages/a/src/via-helper.int.test.ts':
          "import { hasIt } from './helper.ts'\nit.skipIf(!hasIt)('x', () => {})",
        'packages/a/src/backend.int.test.ts': "it.skipIf(config.dbBackend !== 'native')('x', () => {})",
        'packages/a/src/silent.int.test.ts':
          "const has = await which('tool')\ndescribe.skipIf(!has)('x', () => {})",
      }),
    ).toEqual(['packages/a/src/silent.int.test.ts skip-outside-asset-policy'])
  })

  it('refuses a test skipped for good', () => {
    expect(found({ 'packages/a/src/x.test.ts': "it.skip('later', () => {})" })).toEqual([
      'packages/a/src/x.test.ts test-skipped',
    ])
  })
})
