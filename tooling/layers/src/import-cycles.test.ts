import { describe, expect, it } from 'vitest'
import { checkImportCycles } from './import-cycles.ts'

const cycles = (files: Record<string, string>) =>
  checkImportCycles(Object.entries(files).map(([path, text]) => ({ path, text }))).map(
    ({ path, line, message }) => `${path}:${line} ${message}`,
  )

describe('the import-cycle rule', () => {
  it('refuses two files importing each other, a type-only import included', () => {
    expect(
      cycles({
        'packages/queue/src/pipeline.ts': "import type { JobHandler } from './start-worker.ts'",
        'packages/queue/src/start-worker.ts':
          "import { x } from 'bullmq'\nimport type { PipelineStep } from './pipeline.ts'",
      }),
    ).toEqual([
      'packages/queue/src/start-worker.ts:2 packages/queue/src/pipeline.ts → packages/queue/src/start-worker.ts → packages/queue/src/pipeline.ts',
    ])
  })

  it('finds a longer circle through folders, and lets a chain without one pass', () => {
    expect(
      cycles({
        'packages/a/src/one.ts': "import { two } from './deep/two.ts'",
        'packages/a/src/deep/two.ts': "export { three } from '../three.ts'",
        'packages/a/src/three.ts': "import { one } from './one.ts'",
      }),
    ).toHaveLength(1)
    expect(
      cycles({
        'packages/a/src/one.ts': "import { two } from './two.ts'",
        'packages/a/src/two.ts': "import { three } from './three.ts'",
        'packages/a/src/three.ts': 'export const three = 3',
      }),
    ).toEqual([])
  })

  it('leaves tests out: a test importing what it tests, and a helper importing it back, is no circle', () => {
    expect(
      cycles({
        'packages/a/src/one.ts': "import { helper } from './testing.ts'",
        'packages/a/src/testing.ts': "import { one } from './one.ts'",
        'packages/a/src/one.test.ts': "import { one } from './one.ts'",
      }),
    ).toEqual([])
  })
})
