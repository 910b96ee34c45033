import { access, mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { removeLeftScratch, SCRATCH_PREFIX } from './scratch-folders.ts'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rag-scratch-test-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

it("removes the scratch folders of parse workers that are gone, and leaves a live worker's", async () => {
  // No process has this id (above Linux's largest pid).
  const gone = join(dir, 'rag-parse-99999999-abc123')
  const mine = join(dir, `${SCRATCH_PREFIX}def456`)
  const parent = join(dir, `rag-parse-${process.ppid}-ghi789`)
  const unrelated = join(dir, 'someone-else')
  for (const folder of [gone, mine, parent, unrelated])
    await mkdir(join(folder, 'inside'), { recursive: true })
  expect(await removeLeftScratch(dir)).toEqual(['rag-parse-99999999-abc123'])
  await expect(access(gone)).rejects.toThrow()
  for (const folder of [mine, parent, unrelated]) await expect(access(folder)).resolves.toBeUndefined()
})
