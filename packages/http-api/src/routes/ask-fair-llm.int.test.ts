import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generationDefaults } from '@rag/config'
import { type IngestionFixture, ingestSamples, startIngestionFixture } from '@rag/ingest/testing'
import type { GenerateRequest, TextGenerator } from '@rag/llm'
import { startQuestionWorkers, waitForQuestion } from '@rag/questions/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, keywordOnlySearch, type TestGateway } from '../testing.ts'

// The LLM is shared between askers, not served in arrival order: a burst of questions from one key
// holds one place in its line; another key's single question takes a free sequence at once, or,
// with one sequence, the burst's current answer gives it its place.
const KEYS = ['fair-llm-admin-key-0123456789', 'fair-llm-colleague-key-0123456']

/** An LLM whose every answer runs until the test lets it end, recording which question it started. */
function heldGenerator() {
  const started: string[] = []
  const waiting = new Map<string, () => void>()
  const generator: TextGenerator = {
    model: 'held',
    contextSize: 4096,
    countTokens: (text) => [...text].length,
    truncateToTokens: (text, tokens) => [...text].slice(0, tokens).join(''),
    async generate({ prompt, onText, signal }: GenerateRequest) {
      const asked = /《(.+?)》/.exec(prompt)?.[1] ?? '?'
      started.push(asked)
      onText?.('Half ')
      await new Promise<void>((resolve, reject) => {
        waiting.set(asked, resolve)
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true })
      })
      onText?.('an answer [1].')
      return { text: 'Half an answer [1].', promptTokens: 10, completionTokens: 4 }
    },
    async close() {},
  }
  return { generator, started, finish: (asked: string) => waiting.get(asked)?.() }
}

/** The platform with one LLM worker of `concurrency` sequences and two keys, for one describe. */
function platform(concurrency: number) {
  const state = {} as {
    fixture: IngestionFixture
    gateway: TestGateway
    workers: { close(): Promise<void> }[]
    scratch: string
    llm: ReturnType<typeof heldGenerator>
  }
  beforeAll(async () => {
    state.llm = heldGenerator()
    state.scratch = await mkdtemp(join(tmpdir(), 'rag-fair-llm-'))
    state.fixture = await startIngestionFixture(`fair-llm-${concurrency}`)
    await ingestSamples(state.fixture, state.scratch, ['lumina-guide.pdf'])
    state.workers = startQuestionWorkers({
      ...state.fixture,
      pool: state.fixture.db.pool,
      retrieval: { ...keywordOnlySearch.retrieval, refusalThreshold: 0 },
      generation: { ...generationDefaults(), concurrency },
      generator: state.llm.generator,
    })
    state.gateway = await createTestGateway(
      { ...state.fixture, pool: state.fixture.db.pool },
      { uploadDir: state.scratch, maxBytes: 1e6, maxFiles: 1 },
      {
        access: { apiKeys: KEYS, corsOrigins: [], askPerMinute: 0, uploadsPerMinute: 0 },
        models: { reranker: null, llm: 'held' },
      },
    )
  })
  afterAll(async () => {
    await Promise.all((state.workers ?? []).map((worker) => worker.close()))
    await state.gateway?.close()
    await state.fixture?.close()
    if (state.scratch) await rm(state.scratch, { recursive: true, force: true })
  })
  const ask = async (key: string, label: string) => {
    const response = await state.gateway.app.request('/ask', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ question: `保証期間は何年ですか《${label}》`, options: { mode: 'keyword' } }),
    })
    return ((await response.json()) as { id: string }).id
  }
  return { state, ask }
}

const until = async (holds: () => boolean | Promise<boolean>) => {
  for (let wait = 10; !(await holds()); wait = Math.min(wait * 1.5, 200))
    await new Promise((resolve) => setTimeout(resolve, wait))
}
const [BURSTING, LONE] = KEYS as [string, string]
/** Questions handed to the LLM's step (writing or waiting their turn). */
const generatingCount = async (fixture: IngestionFixture) =>
  (
    await fixture.db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM questions WHERE status = 'generating'",
    )
  ).rows[0]?.n ?? 0

describe('with two LLM sequences', () => {
  const { state, ask } = platform(2)

  it('gives a colleague the LLM while another key’s burst waits its turns', async () => {
    const { llm, gateway, fixture } = state
    // The burst's first is being written (which of a burst is written first is whichever is
    // searched first; from then on they go in the order asked).
    const burst = [await ask(BURSTING, 'A1')]
    await until(() => llm.started.length === 1)
    for (let i = 2; i <= 6; i++) burst.push(await ask(BURSTING, `A${i}`))
    await until(async () => (await generatingCount(state.fixture)) === 6)
    expect(llm.started).toEqual(['A1'])
    // The burst's other answers wait for A1 (one sequence each asker); the colleague's takes the other.
    const lone = await ask(LONE, 'B1')
    await until(() => llm.started.length === 2)
    expect(llm.started).toEqual(['A1', 'B1'])
    // It shows its place: the rest of the burst is in line behind its own first answer.
    const sixth = await gateway.app.request(`/ask/${burst[5]}`, {
      headers: { authorization: `Bearer ${BURSTING}` },
    })
    expect(
      ((await sixth.json()) as { queue: { position: number } | null }).queue?.position,
    ).toBeGreaterThanOrEqual(5)

    llm.finish('B1')
    expect((await waitForQuestion(fixture.db.pool, lone)).status).toBe('done')
    llm.finish('A1')
    for (let i = 2; i <= 6; i++) {
      await until(() => llm.started.length === i + 1)
      // One at a time, in the order they were asked.
      expect(llm.started.at(-1)).toBe(`A${i}`)
      llm.finish(`A${i}`)
    }
    for (const id of burst) expect((await waitForQuestion(fixture.db.pool, id)).status).toBe('done')
  })
})

describe('with one LLM sequence', () => {
  const { state, ask } = platform(1)

  it('has a burst’s answer give its place once to a colleague asking behind it, never a lone asker’s', async () => {
    const { llm, fixture } = state
    const burst = [await ask(BURSTING, 'A1')]
    await until(() => llm.started.length === 1)
    burst.push(await ask(BURSTING, 'A2'))
    await until(async () => (await generatingCount(state.fixture)) === 2)
    const lone = await ask(LONE, 'B1')
    // A1 stops (its asker has more waiting) and the colleague's answer is written at once.
    await until(() => llm.started.length === 2)
    expect(llm.started).toEqual(['A1', 'B1'])
    // B1 is a lone asker's: A's next answer waiting behind it does not interrupt it (the order
    // of starts below proves it: an interrupted B1 would have been started twice).
    llm.finish('B1')
    expect((await waitForQuestion(fixture.db.pool, lone)).status).toBe('done')
    // A1 is written again, to the end this time, then A2.
    await until(() => llm.started.length === 3)
    expect(llm.started.at(-1)).toBe('A1')
    llm.finish('A1')
    await until(() => llm.started.length === 4)
    expect(llm.started.at(-1)).toBe('A2')
    llm.finish('A2')
    for (const id of burst) expect((await waitForQuestion(fixture.db.pool, id)).status).toBe('done')
    // B1, a lone asker's, was written once, never interrupted by A's answer waiting behind it.
    expect(llm.started).toEqual(['A1', 'B1', 'A1', 'A2'])
    const { rows } = await fixture.db.pool.query<{ yielded: string | null }>(
      "SELECT timings->>'yielded' AS yielded FROM questions WHERE id = ANY($1::uuid[]) ORDER BY created_at",
      [[...burst, lone]],
    )
    expect(rows.map((row) => row.yielded)).toEqual(['1', null, null])
  })
})
