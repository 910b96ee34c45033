import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { generationDefaults, processEnvironment } from '@rag/config'
import { findTestAsset, testConfig } from '@rag/config/testing'
import { type IngestionFixture, ingestSamples, startIngestionFixture } from '@rag/ingest/testing'
import type { TextGenerator } from '@rag/llm'
import { loadTestGenerator } from '@rag/llm/testing'
import { startQuestionWorkers, waitForQuestion } from '@rag/questions/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, keywordOnlySearch, type TestGateway } from '../testing.ts'

// A thread with the llama.cpp worker wired (stories260K: a story model, so the wiring is asserted,
// not the rewriting's wisdom): a follow-up goes retrieve → the LLM rewrites it → retrieve with the
// rewritten query → the LLM answers with the turns before in its prompt.
const tests = testConfig.parse(processEnvironment()).test
const { path: gguf, found } = await findTestAsset(tests, 'models/gguf/stories260K.gguf')
const _sampleDir = fileURLToPath(new URL('../../../../data/sample/', import.meta.url))

describe.skipIf(!found)('a conversation with the llama.cpp worker', () => {
  let fixture: IngestionFixture
  let gateway: TestGateway
  let generator: TextGenerator
  let workers: { close(): Promise<void> }[] = []
  let scratch: string

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'rag-conversation-llm-'))
    fixture = await startIngestionFixture('gateway-conversation-llm')
    await ingestSamples(fixture, scratch, ['lumina-guide.pdf'])
    generator = await loadTestGenerator(gguf)
    workers = startQuestionWorkers({
      ...fixture,
      pool: fixture.db.pool,
      retrieval: { ...keywordOnlySearch.retrieval, refusalThreshold: 0 },
      generation: { ...generationDefaults(), maxTokens: 24, temperature: 0 },
      generator,
    })
    gateway = await createTestGateway(
      { ...fixture, pool: fixture.db.pool },
      { uploadDir: scratch, maxBytes: 1e6, maxFiles: 1 },
      { models: { reranker: null, llm: 'stories260K' } },
    )
  })

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.close()))
    await gateway?.close()
    await generator?.close()
    await fixture?.close()
    await rm(scratch, { recursive: true, force: true })
  })

  const post = async (path: string, body: unknown) =>
    (await (
      await gateway.app.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json()) as { id: string }

  it('rewrites the follow-up on the LLM worker, searches with it and generates the answer', async () => {
    const thread = await post('/conversations', {})
    const say = async (message: string) =>
      waitForQuestion(
        fixture.db.pool,
        (
          await post(`/conversations/${thread.id}/messages`, {
            message,
            options: { mode: 'keyword', rerank: false },
          })
        ).id,
        60_000,
      )
    const first = await say('保証期間は何年ですか')
    expect(first.status).toBe('done')
    // The first question of a thread stands alone: no rewriting.
    expect(first.searchQuery).toBeNull()
    expect(first.timings.rewriteMs).toBeUndefined()

    const follow = await say('それは延長できますか')
    expect(follow.status).toBe('done')
    expect(follow.history).toEqual([
      { question: '保証期間は何年ですか', searchQuery: null, answer: first.answer },
    ])
    expect(follow.timings.rewriteMs).toBeGreaterThan(0)
    expect(follow.searchQuery).toEqual(expect.any(String))
    expect(follow.degraded).not.toContain('generate')
    expect(follow.usage?.completionTokens).toBeGreaterThan(0)
  })
})
