import { describe, expect, it } from 'vitest'
import { type CoveringFile, chooseCoveringFiles, uncoveredStatements } from './choose-files.ts'

const file = (name: string, seconds: number, ...statements: string[]): CoveringFile => ({
  file: name,
  seconds,
  statements: new Set(statements),
})

describe('choosing the PGlite pass by the SQL it covers', () => {
  it('covers every statement, preferring cheap files, and keeps no file the others cover', () => {
    const files = [
      file('slow-everything.int.test.ts', 100, 'a', 'b', 'c', 'd'),
      file('fast-ab.int.test.ts', 2, 'a', 'b'),
      file('fast-cd.int.test.ts', 3, 'c', 'd'),
      file('fast-a.int.test.ts', 1, 'a'),
      file('no-sql.int.test.ts', 1),
    ]
    const chosen = chooseCoveringFiles(files).map((chosenFile) => chosenFile.file)
    expect(chosen.sort()).toEqual(['fast-ab.int.test.ts', 'fast-cd.int.test.ts'])
  })

  it('takes the only file that sends a statement, however slow', () => {
    const files = [file('slow-unique.int.test.ts', 90, 'a', 'z'), file('fast.int.test.ts', 1, 'a')]
    expect(chooseCoveringFiles(files).map((chosen) => chosen.file)).toEqual(['slow-unique.int.test.ts'])
  })

  it('names what a run leaves uncovered, and by which files it was sent', () => {
    const files = [file('one.int.test.ts', 1, 'a', 'b'), file('two.int.test.ts', 1, 'b', 'c')]
    expect(uncoveredStatements(files, new Set(['one.int.test.ts']))).toEqual(
      new Map([['c', ['two.int.test.ts']]]),
    )
    expect(uncoveredStatements(files, new Set(['one.int.test.ts', 'two.int.test.ts'])).size).toBe(0)
  })
})

describe('statements told apart by what they are', () => {
  it('are one statement across test schemas, constants and list lengths', async () => {
    const { fingerprint, loadParser } = await import('./sql-fingerprint.ts')
    await loadParser()
    const same = [
      'SELECT * FROM "t_search_1a2b3c4d".chunks WHERE id IN ($1, $2, $3)',
      'SELECT * FROM "t_other_label_9f8e7d6c".chunks WHERE id IN ($1)',
    ].map((sql) => fingerprint(sql).fingerprint)
    expect(same[0]).toBe(same[1])
    expect(fingerprint("SELECT 1 FROM chunks WHERE text = 'x'").fingerprint).toBe(
      fingerprint('SELECT 1 FROM chunks WHERE text = $1').fingerprint,
    )
    expect(fingerprint('SELECT id FROM chunks').fingerprint).not.toBe(
      fingerprint('SELECT id FROM sections').fingerprint,
    )
  })
})
