import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readNamedFile } from './read-named-file.ts'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rag-named-file-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('a file named on the command line', () => {
  it('is read, or refused in words naming it and what it should hold', async () => {
    await writeFile(join(dir, 'rules.txt'), 'a, b\n')
    expect(await readNamedFile(join(dir, 'rules.txt'), 'the synonyms file')).toBe('a, b\n')
    await expect(readNamedFile(join(dir, 'nosuch.txt'), 'the synonyms file')).rejects.toThrow(
      `the synonyms file ${join(dir, 'nosuch.txt')}: no such file`,
    )
    await expect(readNamedFile(dir, 'the questions file')).rejects.toThrow(/is a folder, not a file$/)
  })
})
