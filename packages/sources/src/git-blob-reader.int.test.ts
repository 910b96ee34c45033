import { execFileSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { processEnvironment } from '@rag/config'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gitBlobReader } from './git-blob-reader.ts'

// One `git cat-file --batch` for every blob of a sync: answers in order, whole, binary-safe, and
// a missing blob said without stopping the reads after it.
let repo: string
const blobs: Record<string, string> = {}
beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'rag-blobs-'))
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo }).toString().trim()
  git('init', '-q')
  const contents = {
    'a.txt': 'alpha\n',
    'b.bin': '\n\n\u0000binary\nwith newlines\n',
    'c.md': 'x'.repeat(300_000),
  }
  for (const [name, text] of Object.entries(contents)) {
    await writeFile(join(repo, name), text)
    blobs[git('hash-object', '-w', name)] = text
  }
})
afterAll(async () => {
  if (repo) await rm(repo, { recursive: true, force: true })
})

describe('the blob reader', () => {
  it('reads many blobs through one process, each whole and in order, and says which is missing', async () => {
    const reader = gitBlobReader(repo, processEnvironment())
    try {
      const ids = Object.keys(blobs)
      const read = await Promise.all([...ids, ...ids].map((id) => reader.read(id, 20_000)))
      expect(read.map((data) => data.toString('utf8'))).toEqual([...ids, ...ids].map((id) => blobs[id]))
      await expect(reader.read('0'.repeat(40), 20_000)).rejects.toThrow(/is not in the repository/)
      expect((await reader.read(ids[0] as string, 20_000)).toString('utf8')).toBe(blobs[ids[0] as string])
    } finally {
      reader.close()
    }
  })
})
