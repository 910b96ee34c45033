import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type IngestionFixture, ingestSamples, startIngestionFixture } from '@rag/ingest/testing'
import type { TextGenerator } from '@rag/llm'
import { startQuestionWorkers } from '@rag/questions/testing'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestGateway, keywordOnlySearch, type TestGateway } from '../testing.ts'

// RAG-Fusion with an LLM that writes real rephrasings (a scripted stand-in for the model: the
// 260K test model cannot). The claim: each rephrasing is searched and the rankings fused, so a
// passage only a rephrasing finds is among the sources.

const _sampleDir = fileURLToPath(new URL('../../../../data/sample/', import.meta.url))
// The question is about pairing (setup.md); the second rephrasing asks what only the FAQ holds.
const QUESTION = 'ペアリングできないときはどうすればいいですか'
const REPHRASINGS = [
  '以下は言い換えです：',
  '1. ペアリングに失敗する場合の対処法',
  '2. アームの角度は調整できますか',
  '3) Bluetooth 接続のエラー',
]

const scripted: TextGenerator = {
  model: 'scripted',
  contextSize: 4096,
  countTokens: (text) => text.length,
  truncateToTokens: (text, tokens) => text.slice(0, tokens),
  generate: async () => ({ text: REPHRASINGS.join('\n'), promptTokens: 10, completionTokens: 30 }),
  close: async () => undefined,
}

let fixture: IngestionFixture
let gateway: TestGateway
let workers: { close(): Promise<void> }[] = []
let scratch: string

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'rag-fusion-'))
  fixture = await startIngestionFixture('gateway-fusion')
  await ingestSamples(fixture, scratch, ['setup.md', 'faq.csv'])
  workers = startQuestionWorkers({
    ...fixture,
    pool: fixture.db.pool,
    retrieval: { ...keywordOnlySearch.retrieval, refusalThreshold: 0, rerankRefusalThreshold: 0 },
    generator: scripted,
  })
  gateway = await createTestGateway(
    { ...fixture, pool: fixture.db.pool },
    { uploadDir: scratch, maxBytes: 1e6, maxFiles: 1 },
    { models: { reranker: null, llm: 'scripted' } },
  )
})
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.close()))
  await gateway?.close()
  await fixture?.close()
  await rm(scratch, { recursive: true, force: true })
})

it('searches every rephrasing and fuses them: a passage only a rephrasing finds is a source', async () => {
  const ask = async (fusion: boolean) => {
    const response = await gateway.app.request('/ask', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        question: QUESTION,
        options: { mode: 'keyword', fusion, answer: 'none', topK: 10 },
      }),
    })
    const { id } = (await response.json()) as { id: string }
    await (await gateway.app.request(`/ask/${id}/events`)).text()
    return (await (await gateway.app.request(`/ask/${id}`)).json()) as {
      status: string
      queries: string[] | null
      sources: { sourceId: string; text: string }[]
    }
  }
  const plain = await ask(false)
  const fused = await ask(true)
  expect(fused.status).toBe('done')
  // The header line is not a query; the list markers are gone.
  expect(fused.queries).toEqual([
    'ペアリングに失敗する場合の対処法',
    'アームの角度は調整できますか',
    'Bluetooth 接続のエラー',
  ])
  const aboutTheArm = (answer: typeof plain) =>
    answer.sources.filter((source) => source.text.includes('アーム'))
  expect(aboutTheArm(plain)).toEqual([])
  expect(aboutTheArm(fused).length).toBeGreaterThan(0)
})
