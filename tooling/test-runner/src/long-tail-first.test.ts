import { describe, expect, it } from 'vitest'
import { byProject } from './long-tail-first.ts'

describe('the order files start in', () => {
  it('starts the long tail first and unit files last, keeping vitest’s order within each', () => {
    const files = [
      { name: 'a.test.ts', project: 'unit' },
      { name: 'b.int.test.ts', project: 'integration' },
      { name: 'c-faults.int.test.ts', project: 'long' },
      { name: 'd.int.test.ts', project: 'integration' },
      { name: 'e.int.test.ts', project: 'long' },
    ]
    expect(byProject(files, (file) => file.project).map((file) => file.name)).toEqual([
      'c-faults.int.test.ts',
      'e.int.test.ts',
      'b.int.test.ts',
      'd.int.test.ts',
      'a.test.ts',
    ])
  })
})
