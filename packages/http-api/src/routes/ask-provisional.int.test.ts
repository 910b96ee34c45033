import { generationDefaults, processEnvironment } from '@rag/config'
import { findTestAsset, testConfig } from '@rag/config/testing'
import { ingestSamples } from '@rag/ingest/testing'
import type { TextGenerator } from '@rag/llm'
import { endlessGenerator, gatedGenerator, loadTestGenerator } from '@rag/llm/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type GatewayServer, type StreamEvent, serverSentEvents, startGatewayServer } from '../testing.ts'

// The extractive answer at once, the generated one after; a question nobody waits for any more
// stops its generation and frees the LLM for the next.
const tests = testConfig.parse(processEnvironment()).test
const { path: gguf, found: hasGguf } = await findTestAsset(tests, 'models/gguf/stories260K.gguf')

/** Reads a question's event stream until `enough` says so (or it ends); the connection is then closed. */
async function readEvents(
  url: string,
  enough: (events: StreamEvent[]) => boolean = () => false,
): Promise<StreamEvent[]> {
  const stop = new AbortController()
  const events: StreamEvent[] = []
  try {
    for await (const event of serverSentEvents((await fetch(url, { signal: stop.signal })).body)) {
      events.push(event)
      if (enough(events)) break
    }
  } finally {
    stop.abort()
  }
  return events
}

const ask = async (server: GatewayServer, question: string, options: Record<string, unknown> = {}) => {
  const response = await fetch(`${server.baseUrl}/ask`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ question, options: { mode: 'keyword', answer: 'generate', ...options } }),
  })
  return ((await response.json()) as { id: string }).id
}
const read = async (server: GatewayServer, id: string) =>
  (await (await fetch(`${server.baseUrl}/ask/${id}`)).json()) as {
    status: string
    answer: string | null
    provisional: boolean
    queue: { position: number; estimatedWaitSeconds: number } | null
    error: string | null
  }

describe.skipIf(!hasGguf)('a provisional answer, then the generated one', () => {
  let server: GatewayServer
  let generator: TextGenerator & { release(): void }

  beforeAll(async () => {
    generator = gatedGenerator(await loadTestGenerator(gguf))
    server = await startGatewayServer('ask-provisional', {
      gateway: { models: { reranker: null, llm: 'stories260K' } },
      workers: { generator, generation: { ...generationDefaults(), maxTokens: 48, temperature: 0 } },
    })
    await ingestSamples(server.fixture, server.dir, ['lumina-guide.pdf'])
  })
  afterAll(async () => {
    await server?.close()
    await generator?.close()
  })

  it('streams the extractive answer, marked provisional, before the first generated token', async () => {
    const id = await ask(server, '保証期間は何年ですか')
    const url = `${server.baseUrl}/ask/${id}/events`
    const early = await readEvents(url, (events) => events.some((e) => e.event === 'provisional'))
    const provisional = early.find((e) => e.event === 'provisional')?.data
    expect(provisional).toMatchObject({ provisional: true, status: 'generating' })
    expect(String(provisional?.answer)).toContain('保証期間はお買い上げ日から2年間です')
    expect((await read(server, id)).provisional).toBe(true)
    // Only now may the LLM write: whatever it writes comes after the stand-in.
    generator.release()
    const events = await readEvents(url, (all) => all.some((e) => e.event === 'done'))
    const order = events.map((e) => e.event)
    expect(order.indexOf('provisional')).toBeGreaterThanOrEqual(0)
    expect(order.indexOf('provisional')).toBeLessThan(order.indexOf('token'))
    const done = events.find((e) => e.event === 'done')?.data
    expect(done).toMatchObject({ status: 'done', provisional: false })
    const written = events.filter((e) => e.event === 'token').map((e) => String(e.data.text))
    expect(String(done?.answer)).toBe(written.join('').trim())
  })
})

describe('stopping an answer nobody waits for', () => {
  let server: GatewayServer
  const llm = endlessGenerator()

  beforeAll(async () => {
    server = await startGatewayServer('ask-cancel', {
      gateway: { models: { reranker: null, llm: 'endless' } },
      workers: { generator: llm, generation: { ...generationDefaults(), maxTokens: 64, concurrency: 1 } },
    })
    await ingestSamples(server.fixture, server.dir, ['lumina-guide.pdf'])
  })
  afterAll(() => server?.close())

  it('frees the LLM for the next question when the one it writes is cancelled, which never failed for waiting', async () => {
    const first = await ask(server, '保証期間は何年ですか')
    // Followed to its end, so nobody leaves it: only DELETE ends it.
    const firstStream = readEvents(`${server.baseUrl}/ask/${first}/events`, (events) =>
      events.some((e) => e.event === 'done'),
    )
    await expect.poll(() => llm.requests.length, { timeout: 30_000 }).toBe(1)
    const second = await ask(server, '保証期間はいつまでですか', { maxTokens: 5000 })
    await expect.poll(async () => (await read(server, second)).queue?.position, { timeout: 30_000 }).toBe(1)
    // Waiting behind the first is not a lack of progress: long past the limit, it is still waiting.
    await server.fixture.db.pool.query(
      "UPDATE questions SET updated_at = now() - interval '1 hour' WHERE id = $1",
      [second],
    )
    expect((await read(server, second)).status).toBe('generating')

    const cancelled = await fetch(`${server.baseUrl}/ask/${first}`, { method: 'DELETE' })
    expect(cancelled.status).toBe(200)
    expect(await cancelled.json()).toMatchObject({ status: 'cancelled' })
    expect((await firstStream).at(-1)).toMatchObject({ event: 'done', data: { status: 'cancelled' } })
    // The first generation stopped, and only then did the second begin (one LLM, one at a time).
    const secondEvents = await readEvents(`${server.baseUrl}/ask/${second}/events`, (events) =>
      events.some((e) => e.event === 'token'),
    )
    // Its turn came after an hour in line: it is written, not failed as stalled as it starts.
    expect(secondEvents.map((e) => e.event)).toContain('token')
    const [one, two] = llm.requests
    expect(one?.aborted).toBe(true)
    expect(two?.started).toBeGreaterThan(one?.ended ?? Number.POSITIVE_INFINITY)
    // A question asks for a shorter answer than LLM_MAX_TOKENS, never a longer one.
    expect(two?.maxTokens).toBe(64)

    // Cancelling what has already ended stops nothing, and says so.
    const again = await fetch(`${server.baseUrl}/ask/${first}`, { method: 'DELETE' })
    expect(again.status).toBe(409)
    expect(await again.text()).toMatch(/already finished \(cancelled\)/)
    await fetch(`${server.baseUrl}/ask/${second}`, { method: 'DELETE' })
  })

  it('cancels a question whose only watcher leaves and does not come back', async () => {
    const id = await ask(server, '保証期間は何年ですか')
    await readEvents(`${server.baseUrl}/ask/${id}/events`, (events) =>
      events.some((e) => e.event === 'token'),
    )
    // The stream is closed: past the reconnection grace, nobody follows the question.
    await expect.poll(async () => (await read(server, id)).status, { timeout: 30_000 }).toBe('cancelled')
    expect((await read(server, id)).error).toMatch(/no client follows it/)
    await expect.poll(() => llm.requests.at(-1)?.aborted, { timeout: 30_000 }).toBe(true)
  })
})
