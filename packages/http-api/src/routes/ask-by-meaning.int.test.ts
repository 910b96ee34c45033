import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isQuestionFinished } from '@rag/api-contract/enums'
import { processEnvironment, type RetrievalSection } from '@rag/config'
import { testConfig } from '@rag/config/testing'
import type { Embedder } from '@rag/embeddings'
import { findSharedTokenizer, loadTinyEmbedder } from '@rag/embeddings/testing'
import { type IngestionFixture, ingestSamples, startIngestionFixture } from '@rag/ingest/testing'
import { startQuestionWorkers } from '@rag/questions/testing'
import { loadCrossEncoder, type Reranker } from '@rag/reranking'
import { writeTinyCrossEncoder } from '@rag/reranking/testing'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, keywordOnlySearch, type TestGateway } from '../testing.ts'

// Passages the embedder found that share no word with the question (an English question over
// Japanese documents) are not refused by the word judgement alone: the reranker judges them, even
// with reranking off. The models are random-weight ones with a real tokenizer: what is asserted is
// who decided, not how well.
const tests = testConfig.parse(processEnvironment()).test
const { dir: tokenizerDir, found: hasTokenizer } = await findSharedTokenizer(tests.sharedDir)

interface Answer {
  status: string
  answer: string | null
  refused: boolean
  answerability: { probability: number; decidedBy?: string; rerankerProbability?: number } | null
  sources: { sourceId: string; foundBy?: string[] }[]
}

// No word of it is in the samples (they are Japanese, and their English rows say other things).
const QUESTION = 'How many minutes until the battery is completely full?'

describe.skipIf(!hasTokenizer)('a passage found by meaning', () => {
  let fixture: IngestionFixture
  let gateway: TestGateway
  let workers: { close(): Promise<void> }[] = []
  let embedder: Embedder
  let reranker: Reranker
  let scratch: string

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'rag-ask-meaning-'))
    const modelsDir = join(scratch, 'models')
    await writeTinyCrossEncoder({ dir: join(modelsDir, 'test/cross-encoder'), tokenizerDir })
    embedder = await loadTinyEmbedder({ modelsDir, tokenizerDir })
    fixture = await startIngestionFixture('ask-by-meaning', { embedder })
    reranker = await loadCrossEncoder({
      model: 'test/cross-encoder',
      modelsDir,
      allowDownload: false,
      logger: fixture.logger,
    })
    await ingestSamples(fixture, scratch, ['lumina-guide.pdf', 'faq.csv', 'setup.md'])
    gateway = await createTestGateway(
      { ...fixture, pool: fixture.db.pool },
      { uploadDir: scratch, maxBytes: 1e6, maxFiles: 5 },
    )
  })

  afterEach(async () => {
    await Promise.all(workers.map((worker) => worker.close()))
    workers = []
  })

  afterAll(async () => {
    await gateway?.close()
    await fixture?.close()
    await rm(scratch, { recursive: true, force: true })
  })

  const startWorkers = (judge: Reranker | null, retrieval: Partial<RetrievalSection> = {}) => {
    workers = startQuestionWorkers({
      ...fixture,
      pool: fixture.db.pool,
      retrieval: { ...keywordOnlySearch.retrieval, ...retrieval },
      embedder,
      reranker: judge,
    })
  }

  const ask = async (options: Record<string, unknown>): Promise<Answer> => {
    const response = await gateway.app.request('/ask', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: QUESTION, options: { answer: 'extractive', ...options } }),
    })
    expect(response.status).toBe(202)
    const { id } = (await response.json()) as { id: string }
    const deadline = Date.now() + 120_000
    for (let wait = 20; ; wait = Math.min(wait * 1.5, 500)) {
      const answer = (await (await gateway.app.request(`/ask/${id}`)).json()) as Answer
      if (isQuestionFinished(answer.status)) return answer
      if (Date.now() > deadline) throw new Error(`question still ${answer.status}`)
      await new Promise((resolve) => setTimeout(resolve, wait))
    }
  }

  it('is refused by the words in keyword mode, naming what it looked at', async () => {
    startWorkers(null)
    const answer = await ask({ mode: 'keyword' })
    expect(answer.refused).toBe(true)
    expect(answer.answerability?.decidedBy).toBe('words')
  })

  it('is refused by the words in hybrid mode when no reranker can judge it', async () => {
    // The embedder's nearest passages are there for any question: without a judge, answering from
    // them would refuse nothing.
    startWorkers(null)
    const answer = await ask({ mode: 'hybrid' })
    expect(answer.sources.some((source) => source.foundBy?.includes('vector'))).toBe(true)
    expect(answer.answerability?.decidedBy).toBe('words')
    expect(answer.refused).toBe(true)
  })

  it("is judged by the reranker when there is one, on the reranker's threshold", async () => {
    startWorkers(reranker, { rerankRefusalThreshold: 0 })
    const kept = await ask({ mode: 'hybrid', rerank: false })
    // The words said no; the reranker (its threshold 0: yes to anything) answered from a passage
    // the embedder found, put first.
    expect(kept.answerability?.probability).toBeLessThan(keywordOnlySearch.retrieval.refusalThreshold)
    expect(kept.answerability?.decidedBy).toBe('reranker')
    expect(kept.answerability?.rerankerProbability).toBeGreaterThanOrEqual(0)
    expect(kept.refused).toBe(false)
    expect(kept.answer).not.toBeNull()
    expect(kept.sources[0]?.foundBy).toContain('vector')
    await Promise.all(workers.map((worker) => worker.close()))

    startWorkers(reranker, { rerankRefusalThreshold: 1 })
    const refused = await ask({ mode: 'hybrid', rerank: false })
    expect(refused.answerability?.decidedBy).toBe('reranker')
    expect(refused.refused).toBe(true)
    expect(refused.answer).toContain(refused.sources[0]?.sourceId)
  })
})
