import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isQuestionFinished } from '@rag/api-contract/enums'
import { generationDefaults, processEnvironment } from '@rag/config'
import { findTestAsset, testConfig } from '@rag/config/testing'
import { findSharedTokenizer } from '@rag/embeddings/testing'
import { type IngestionFixture, ingestSamples, startIngestionFixture } from '@rag/ingest/testing'
import type { TextGenerator } from '@rag/llm'
import { loadTestGenerator } from '@rag/llm/testing'
import { startQuestionWorkers } from '@rag/questions/testing'
import { loadCrossEncoder, type Reranker } from '@rag/reranking'
import { writeTinyCrossEncoder } from '@rag/reranking/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, keywordOnlySearch, type TestGateway } from '../testing.ts'

// The real model paths end to end: the llama.cpp worker on stories260K.gguf (a 260K-parameter
// story model: wiring, streaming and token accounting are asserted, not answer quality) and the
// transformers.js cross-encoder on a generated random-weight model.
const tests = testConfig.parse(processEnvironment()).test
const { path: gguf, found: hasGguf } = await findTestAsset(tests, 'models/gguf/stories260K.gguf')
const { dir: tokenizerDir, found: hasTokenizer } = await findSharedTokenizer(tests.sharedDir)

const _sampleDir = fileURLToPath(new URL('../../../../data/sample/', import.meta.url))

interface Answer {
  status: string
  answer: string | null
  refused: boolean
  citations: { marker: number; sourceId: string }[]
  sources: { rank: number; sourceId: string; score: number; text: string }[]
  degraded: string[]
  queries: string[] | null
  timings: Record<string, number>
  usage: { promptTokens: number; completionTokens: number } | null
}

describe.skipIf(!hasGguf || !hasTokenizer)('asking with real models', () => {
  let fixture: IngestionFixture
  let gateway: TestGateway
  let workers: { close(): Promise<void> }[] = []
  let generator: TextGenerator
  let reranker: Reranker
  let scratch: string

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'rag-ask-models-'))
    fixture = await startIngestionFixture('gateway-ask-models')
    const pool = fixture.db.pool
    await ingestSamples(fixture, scratch, ['lumina-guide.pdf', 'faq.csv', 'setup.md'])
    await writeTinyCrossEncoder({ dir: join(scratch, 'models/test/cross-encoder'), tokenizerDir })
    reranker = await loadCrossEncoder({
      model: 'test/cross-encoder',
      modelsDir: join(scratch, 'models'),
      allowDownload: false,
      logger: fixture.logger,
    })
    generator = await loadTestGenerator(gguf, { sequences: 2, logger: fixture.logger })
    workers = startQuestionWorkers({
      ...fixture,
      pool,
      // The random cross-encoder's scores say nothing: no refusals from them here.
      retrieval: { ...keywordOnlySearch.retrieval, refusalThreshold: 0, rerankRefusalThreshold: 0 },
      generation: { ...generationDefaults(), maxTokens: 48, temperature: 0, concurrency: 2 },
      reranker,
      generator,
      concurrency: 2,
    })
    gateway = await createTestGateway(
      { ...fixture, pool },
      { uploadDir: scratch, maxBytes: 1e6, maxFiles: 5 },
    )
  })

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.close()))
    await gateway?.close()
    await generator?.close()
    await fixture?.close()
    await rm(scratch, { recursive: true, force: true })
  })

  const post = async (question: string, options: Record<string, unknown>) => {
    const response = await gateway.app.request('/ask', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question, options }),
    })
    expect(response.status).toBe(202)
    return ((await response.json()) as { id: string }).id
  }
  const poll = async (id: string): Promise<Answer> => {
    const deadline = Date.now() + 60_000
    for (;;) {
      const answer = (await (await gateway.app.request(`/ask/${id}`)).json()) as Answer
      if (isQuestionFinished(answer.status)) return answer
      if (Date.now() > deadline) throw new Error(`still ${answer.status}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }

  it('reranks with the cross-encoder: topK kept, best first, scores are its relevance', async () => {
    const question = 'アームの角度は調整できますか'
    const answer = await poll(
      await post(question, { mode: 'keyword', rerank: true, answer: 'none', topK: 2 }),
    )
    expect(answer.degraded).toEqual([])
    expect(answer.sources.map((s) => s.rank)).toEqual([1, 2])
    const [first, second] = answer.sources
    expect(first?.score).toBeGreaterThanOrEqual(second?.score ?? 1)
    const again = await reranker.score(question, [first?.text ?? '', second?.text ?? ''])
    expect(first?.score).toBeCloseTo(again[0] ?? -1, 3)
    expect(answer.timings.rerankMs).toBeGreaterThanOrEqual(0)
  })

  it('generates with llama.cpp, streaming the tokens of the answer it stores', async () => {
    const id = await post('保証期間は何年ですか', { mode: 'keyword', rerank: false, answer: 'generate' })
    const stream = await (await gateway.app.request(`/ask/${id}/events`)).text()
    const events = [...stream.matchAll(/^event: (\w+)\ndata: (.*)$/gm)].map(([, name, data]) => ({
      name,
      data: JSON.parse(data ?? '{}') as Record<string, unknown>,
    }))
    const statuses = events.filter((e) => e.name === 'status').map((e) => e.data.status)
    expect(statuses.at(-1)).toBe('generating')
    const tokens = events.filter((e) => e.name === 'token').map((e) => String(e.data.text))
    expect(tokens.length).toBeGreaterThan(1)
    const done = events.at(-1)
    expect(done?.name).toBe('done')
    const answer = done?.data as unknown as Answer
    expect(answer.status).toBe('done')
    expect(answer.answer?.length).toBeGreaterThan(0)
    expect(tokens.join('').trim()).toBe(answer.answer)
    expect(answer.refused).toBe(false)
    expect(answer.usage?.completionTokens).toBeGreaterThan(0)
    expect(answer.usage?.completionTokens).toBeLessThanOrEqual(48)
    expect(answer.usage?.promptTokens).toBeGreaterThan(generator.countTokens(answer.sources[0]?.text ?? ''))
    expect(answer.timings.generateMs).toBeGreaterThan(0)
    const cited = new Set(answer.sources.map((s) => s.sourceId))
    for (const citation of answer.citations) expect(cited.has(citation.sourceId)).toBe(true)
  })

  it('RAG-Fusion: the LLM rephrases, every phrasing is searched and fused', async () => {
    const answer = await poll(
      await post('LEDの寿命は？', { mode: 'keyword', fusion: true, rerank: true, answer: 'none', topK: 3 }),
    )
    expect(answer.status).toBe('done')
    expect(answer.degraded).toEqual([])
    expect(Array.isArray(answer.queries)).toBe(true)
    expect(answer.queries?.length).toBeLessThanOrEqual(3)
    expect(answer.timings.rephraseMs).toBeGreaterThan(0)
    expect(answer.sources.length).toBeGreaterThan(0)
    expect(answer.sources.length).toBeLessThanOrEqual(3)
  })
})
