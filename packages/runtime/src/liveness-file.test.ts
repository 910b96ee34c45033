import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLogger } from '@rag/log'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startLivenessFile } from './liveness-file.ts'

// As long as a loaded machine needs: vi.waitFor's own default is a second.
const patience = { timeout: 20_000, interval: 20 }

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rag-liveness-'))
})
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe('the liveness file', () => {
  it('is touched while the process works, and left to grow old when it stops', async () => {
    const path = join(dir, 'alive')
    let running = true
    let beats = 0
    const stop = startLivenessFile({
      path,
      isAlive: async () => {
        beats += 1
        return running
      },
      logger: createLogger({ name: 'test', level: 'silent' }),
      everyMs: 50,
    })
    try {
      await vi.waitFor(async () => expect(await readFile(path, 'utf8')).toMatch(/^\d{4}-/), patience)
      const first = (await stat(path)).mtimeMs
      await vi.waitFor(async () => expect((await stat(path)).mtimeMs).toBeGreaterThan(first), patience)
      running = false
      // A beat already past the check may still write: let it land, then watch later beats.
      const stopped = beats
      await vi.waitFor(() => expect(beats).toBeGreaterThan(stopped + 1), patience)
      const last = (await stat(path)).mtimeMs
      const seen = beats
      await vi.waitFor(() => expect(beats).toBeGreaterThan(seen + 3), patience)
      expect((await stat(path)).mtimeMs).toBe(last)
    } finally {
      stop()
    }
  })
})
