import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { processEnvironment } from '@rag/config'
import { findTestAsset } from '@rag/config/testing'
import { readTestConfig } from '@rag/db/testing'
import { createTestGateway, keywordOnlySearch, type TestGateway } from '@rag/http-api/testing'
import { type IngestionFixture, ingestSamples, startIngestionFixture } from '@rag/ingest/testing'
import { processCommands } from '@rag/process-catalog'
import { ProcessSupervisor } from '@rag/process-supervisor'
import { killWorker } from '@rag/process-supervisor/testing'
import { readQuestion } from '@rag/questions'
import { createQuestionEventSubscriber, type QuestionEvent, readPartialAnswer } from '@rag/queue'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// The question workers as real processes, the LLM worker (llama.cpp on stories260K) SIGKILLed
// while it answers: the answer must come from a retry when the worker comes back, and fail with
// a reason naming the stage when it does not. Never a question left waiting forever.

const { path: gguf, found: hasGguf } = await findTestAsset(readTestConfig(), 'models/gguf/stories260K.gguf')
const _sampleDir = fileURLToPath(new URL('../../../data/sample/', import.meta.url))
const QUESTION = '保証期間は何年ですか'

describe.skipIf(!hasGguf)('an LLM worker crashing mid-answer', () => {
  let fixture: IngestionFixture
  let scratch: string

  beforeAll(async () => {
    fixture = await startIngestionFixture('question-faults')
    scratch = await mkdtemp(join(tmpdir(), 'rag-question-faults-'))
    await ingestSamples(fixture, scratch, ['lumina-guide.pdf'])
  })
  afterAll(async () => {
    await fixture?.close()
    await rm(scratch, { recursive: true, force: true })
  })

  async function scenario(restartDelayMs: number, questionTimeoutSeconds: number) {
    const output = new PassThrough()
    output.resume()
    const supervisor = new ProcessSupervisor({
      programs: processCommands(['worker-retrieve', 'worker-llm']),
      env: {
        ...processEnvironment(),
        DATABASE_URL: fixture.db.url,
        DB_SCHEMA: fixture.db.schema,
        REDIS_URL: fixture.redisUrl,
        QUEUE_PREFIX: fixture.prefix,
        EMBEDDING_MODEL: 'none',
        RERANKER_MODEL: 'none',
        LLM_MODEL: gguf,
        LLM_CONTEXT_SIZE: '2048',
        LLM_MAX_TOKENS: '1500',
        LLM_TEMPERATURE: '1',
        LLM_THREADS: '1',
        JOB_LOCK_SECONDS: '2',
        LOG_LEVEL: 'warn',
      },
      output,
      restartDelayMs,
    })
    const gateway: TestGateway = await createTestGateway(
      { ...fixture, pool: fixture.db.pool },
      { uploadDir: scratch, maxBytes: 1, maxFiles: 1 },
      {
        retrieval: {
          ...keywordOnlySearch.retrieval,
          refusalThreshold: 0,
          rerankRefusalThreshold: 0,
          questionTimeoutSeconds,
        },
      },
    )
    const subscriber = await createQuestionEventSubscriber(fixture.redisUrl, fixture.prefix)
    try {
      supervisor.start()
      const response = await gateway.app.request('/ask', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question: QUESTION, options: { mode: 'keyword', answer: 'generate' } }),
      })
      const { id } = (await response.json()) as { id: string }
      const events: QuestionEvent[] = []
      await subscriber.subscribe(id, (event) => events.push(event))
      // Mid-answer: generating, with some of the answer already streamed (or at least started).
      await expect
        .poll(async () => (await readQuestion(fixture.db.pool, id))?.status, {
          timeout: 60_000,
          interval: 20,
        })
        .toBe('generating')
      await expect
        .poll(async () => (await readPartialAnswer(fixture.producer.redis, fixture.prefix, id)).length, {
          timeout: 60_000,
          interval: 10,
        })
        .toBeGreaterThan(0)
      // Killed mid-answer: streamed text exists that the retry must take back.
      killWorker(supervisor, 'worker-llm')
      let polled: {
        status: string
        answer: string | null
        error: string | null
        provisional: boolean
        degraded: string[]
      } = { status: 'generating', answer: null, error: null, provisional: true, degraded: [] }
      await expect
        .poll(
          async () => {
            polled = (await (await gateway.app.request(`/ask/${id}`)).json()) as typeof polled
            return polled.status
          },
          { timeout: 90_000, interval: 200 },
        )
        .toMatch(/^(done|failed)$/)
      return { polled, events }
    } finally {
      await subscriber.close()
      await gateway.close()
      await supervisor.stop(5000)
    }
  }

  it('is retried when the worker comes back, and the answer starts over for watchers', async () => {
    const { polled, events } = await scenario(200, 600)
    expect(polled.status).toBe('done')
    expect(polled.answer?.length).toBeGreaterThan(0)
    expect(events.some((event) => event.type === 'restart')).toBe(true)
  })

  it('ends with the provisional answer, the stalled stage named, when no LLM worker comes back', async () => {
    const { polled } = await scenario(10 * 60_000, 4)
    // The extractive answer shown while the LLM wrote stays the answer; the LLM's is missing, said why.
    expect(polled.status).toBe('done')
    expect(polled.answer).toContain('保証期間')
    expect(polled.provisional).toBe(false)
    expect(polled.degraded).toContain('generate')
    expect(polled.error).toMatch(
      /while generating \(is the LLM worker running\?\); the extractive answer stands/,
    )
  })
})
