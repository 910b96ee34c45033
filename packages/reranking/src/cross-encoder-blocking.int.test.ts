import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { processEnvironment } from '@rag/config'
import { testConfig } from '@rag/config/testing'
import { findSharedTokenizer } from '@rag/embeddings/testing'
import { createLogger } from '@rag/log'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { loadCrossEncoder, type Reranker } from './cross-encoder.ts'
import { writeHeavyCrossEncoder } from './testing/heavy-cross-encoder.ts'

// A cross-encoder with the per-token cost of a real one (dense layers of 1024): a top-10 rerank of
// long passages takes seconds of CPU. The worker's event loop must keep turning meanwhile (job
// lock renewals, health heartbeats, shutdown), so inference runs in a thread of its own.

const { dir: tokenizerDir, found } = await findSharedTokenizer(
  testConfig.parse(processEnvironment()).test.sharedDir,
)
const logger = createLogger({ name: 'test', level: 'silent' })
const TICK_MS = 10
let modelsDir: string
let reranker: Reranker

beforeAll(async () => {
  if (!found) return
  modelsDir = await mkdtemp(join(tmpdir(), 'rag-heavy-reranker-'))
  await writeHeavyCrossEncoder({ dir: join(modelsDir, 'test/heavy'), tokenizerDir })
  reranker = await loadCrossEncoder({
    model: 'test/heavy',
    modelsDir,
    allowDownload: false,
    logger,
    threads: 1,
  })
})
afterAll(async () => {
  await reranker?.close()
  if (modelsDir) await rm(modelsDir, { recursive: true, force: true })
})

it.skipIf(!found)(
  'a long rerank does not block the event loop of the process that asked for it',
  async () => {
    const passage =
      'The warranty covers manufacturing defects for two years from the date of purchase. '.repeat(30)
    const passages = Array.from({ length: 10 }, (_, i) => `${i}: ${passage}`)
    let longestGap = 0
    let last = performance.now()
    const ticker = setInterval(() => {
      const now = performance.now()
      longestGap = Math.max(longestGap, now - last)
      last = now
    }, TICK_MS)
    const started = performance.now()
    const scores = await reranker.score('How long is the warranty?', passages)
    const elapsed = performance.now() - started
    clearInterval(ticker)
    expect(scores).toHaveLength(10)
    // The inference was long enough to tell (many ticks of the loop), and the loop never waited on
    // it: run on this thread, the longest gap would be the whole inference. Measured against the
    // inference itself, not a fixed deadline: a loaded machine stretches both alike.
    expect(elapsed).toBeGreaterThan(20 * TICK_MS)
    expect(longestGap).toBeLessThan(elapsed / 4)
  },
  120_000,
)
