import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { AlreadyRunningError, claimDataDir } from './instance-lock.ts'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rag-lock-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

it('refuses a second start on the same data folder, naming the one that runs, and frees it on release', async () => {
  const first = await claimDataDir(dir)
  // Another process holds it: our parent stands in for a running platform.
  await writeFile(
    join(dir, 'rag-platform.pid'),
    JSON.stringify({ pid: process.ppid, startedAt: '2026-11-25T10:00:00.000Z' }),
  )
  const second = claimDataDir(dir)
  await expect(second).rejects.toBeInstanceOf(AlreadyRunningError)
  await expect(second).rejects.toThrow(
    new RegExp(
      `already runs on ${dir} \\(pid ${process.ppid}, started 2026-11-25T10:00:00.000Z\\): stop it first`,
    ),
  )
  // Not ours any more: releasing leaves the holder's file alone.
  await first.release()
  expect(await readFile(join(dir, 'rag-platform.pid'), 'utf8')).toContain(String(process.ppid))
})

it('takes over the claim of a process that is gone', async () => {
  await writeFile(join(dir, 'rag-platform.pid'), JSON.stringify({ pid: 99_999_999, startedAt: 'yesterday' }))
  const claim = await claimDataDir(dir)
  expect(JSON.parse(await readFile(join(dir, 'rag-platform.pid'), 'utf8'))).toMatchObject({
    pid: process.pid,
  })
  await claim.release()
  await expect(readFile(join(dir, 'rag-platform.pid'))).rejects.toThrow()
})
