import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { processEnvironment } from '@rag/config'
import { testConfig } from '@rag/config/testing'
import { findSharedTokenizer } from '@rag/embeddings/testing'
import { createLogger } from '@rag/log'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadCrossEncoder, type Reranker, relevanceOf } from './cross-encoder.ts'
import { writeTinyCrossEncoder } from './testing/tiny-cross-encoder.ts'

const logger = createLogger({ name: 'test', level: 'silent' })
const { dir: tokenizerDir, found: hasTokenizer } = await findSharedTokenizer(
  testConfig.parse(processEnvironment()).test.sharedDir,
)
if (!hasTokenizer)
  console.warn(`skipping cross-encoder tests: no tokenizer at ${tokenizerDir} (set SHARED_DIR)`)

describe('relevanceOf', () => {
  it('maps one logit through a sigmoid and two through a softmax of the positive class', () => {
    expect(relevanceOf([0])).toBeCloseTo(0.5)
    expect(relevanceOf([4])).toBeGreaterThan(0.98)
    expect(relevanceOf([-4])).toBeLessThan(0.02)
    expect(relevanceOf([0, 0])).toBeCloseTo(0.5)
    expect(relevanceOf([-2, 2])).toBeGreaterThan(0.98)
  })
})

describe.skipIf(!hasTokenizer)('the transformers.js cross-encoder on a tiny generated model', () => {
  let modelsDir: string
  let reranker: Reranker
  beforeAll(async () => {
    modelsDir = await mkdtemp(join(tmpdir(), 'rag-reranker-'))
    await writeTinyCrossEncoder({ dir: join(modelsDir, 'test/tiny-cross-encoder'), tokenizerDir })
    reranker = await loadCrossEncoder({
      model: 'test/tiny-cross-encoder',
      modelsDir,
      allowDownload: false,
      logger,
      batchSize: 3,
    })
  })
  afterAll(() => rm(modelsDir, { recursive: true, force: true }))

  it('scores every pair between 0 and 1, in the passages order, the same in any batch', async () => {
    const passages = [
      'The lamp charges in three hours.',
      'Warranty: two years from purchase.',
      'a',
      'Battery life is eight hours at full brightness, longer when dimmed.',
      'Store hours are 10:00 to 19:00.',
      'x',
      'The lamp charges in three hours.',
    ]
    const scores = await reranker.score('How long does charging take?', passages)
    expect(scores).toHaveLength(passages.length)
    for (const score of scores) {
      expect(score).toBeGreaterThan(0)
      expect(score).toBeLessThan(1)
    }
    // Same pair, different batch and padding: same score.
    expect(scores[6]).toBeCloseTo(scores[0] ?? -1, 5)
    const alone = await reranker.score('How long does charging take?', [passages[3] ?? ''])
    expect(alone[0]).toBeCloseTo(scores[3] ?? -1, 5)
    // The question is part of the input: another question changes the scores.
    const other = await reranker.score('Where is the store?', passages)
    expect(other[0]).not.toBeCloseTo(scores[0] ?? -1, 5)
    expect(new Set(scores.map((s) => s.toFixed(4))).size).toBeGreaterThan(3)
  })

  it('returns nothing for no passages', async () => {
    expect(await reranker.score('q', [])).toEqual([])
  })
})
