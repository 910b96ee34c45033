import { describe, expect, it } from 'vitest'
import { runWorker } from './worker-processes.ts'

describe('the worker app', () => {
  it('refuses to start without a worker named, listing the ones it runs', async () => {
    await expect(runWorker(undefined, {})).rejects.toThrow(
      /^name the worker process to run: one of worker-parse, .*worker-llm$/,
    )
  })

  it('refuses a name the catalog does not have, saying so', async () => {
    await expect(runWorker('worker-nope', {})).rejects.toThrow(
      /^no worker process is named worker-nope: one of /,
    )
  })

  it('starts the worker named: its own settings are read (and a bad one stops it, naming the process)', async () => {
    await expect(runWorker('worker-chunk', { CHUNK_SIZE: 'many' })).rejects.toThrow(
      /worker-chunk.*CHUNK_SIZE/s,
    )
  })
})
