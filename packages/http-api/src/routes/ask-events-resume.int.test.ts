import { fileURLToPath } from 'node:url'
import { generationDefaults, processEnvironment } from '@rag/config'
import { findTestAsset, testConfig } from '@rag/config/testing'
import { ingestSamples } from '@rag/ingest/testing'
import type { TextGenerator } from '@rag/llm'
import { loadTestGenerator } from '@rag/llm/testing'
import { EventSource } from 'eventsource'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type GatewayServer, startGatewayServer } from '../testing.ts'

// GET /ask/:id/events as a standard client uses it: the `eventsource` package (the WHATWG
// EventSource for Node), its connection cut mid-answer by the network, resuming on its own.
const tests = testConfig.parse(processEnvironment()).test
const { path: gguf, found: hasGguf } = await findTestAsset(tests, 'models/gguf/stories260K.gguf')
const _sample = fileURLToPath(new URL('../../../../data/sample/lumina-guide.pdf', import.meta.url))

/** A fetch whose first event stream breaks right after its first `token` event, as a dropped network would. */
function fetchCutOnce() {
  const requests: { lastEventId: string | null; status: number }[] = []
  const cutFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init)
    requests.push({ lastEventId: new Headers(init?.headers).get('last-event-id'), status: response.status })
    if (requests.length > 1 || !response.body) return response
    const reader = response.body.getReader()
    let seen = ''
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await reader.read()
        if (done) return controller.close()
        seen += Buffer.from(value).toString('latin1')
        const end = seen.indexOf('\n\n', seen.indexOf('event: token'))
        if (seen.includes('event: token') && end >= 0) {
          // Hand over up to the end of that event, then fail as a reset connection does.
          const keep = value.length - (seen.length - (end + 2))
          controller.enqueue(value.subarray(0, keep))
          await reader.cancel()
          controller.error(new TypeError('connection reset'))
          return
        }
        controller.enqueue(value)
      },
    })
    return new Response(body, { status: response.status, headers: response.headers })
  }
  return { cutFetch, requests }
}

describe.skipIf(!hasGguf)('the answer stream with a standard EventSource', () => {
  let server: GatewayServer
  let generator: TextGenerator

  beforeAll(async () => {
    generator = await loadTestGenerator(gguf)
    server = await startGatewayServer('ask-events-resume', {
      gateway: { models: { reranker: null, llm: 'stories260K' } },
      workers: { generator, generation: { ...generationDefaults(), maxTokens: 96, temperature: 0 } },
    })
    await ingestSamples(server.fixture, server.dir, ['lumina-guide.pdf'])
  })

  afterAll(async () => {
    await server?.close()
    await generator?.close()
  })

  it('resumes after a cut with exactly the answer, each status once, and stops after done', async () => {
    const posted = await fetch(`${server.baseUrl}/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: '保証期間は何年ですか', options: { answer: 'generate' } }),
    })
    const { id } = (await posted.json()) as { id: string }
    const { cutFetch, requests } = fetchCutOnce()
    const source = new EventSource(`${server.baseUrl}/ask/${id}/events`, { fetch: cutFetch })
    let answer = ''
    const statuses: string[] = []
    const ids: string[] = []
    let done: { answer: string; status: string } | undefined
    source.addEventListener('status', (event) => statuses.push(JSON.parse(event.data).status))
    source.addEventListener('token', (event) => {
      answer += JSON.parse(event.data).text
      ids.push(event.lastEventId)
    })
    source.addEventListener('restart', () => {
      answer = ''
    })
    source.addEventListener('done', (event) => {
      done = JSON.parse(event.data)
    })
    // After `done` the server ends the stream; the client reconnects once and is told 204: stop.
    await vi.waitFor(() => expect(source.readyState).toBe(EventSource.CLOSED), { timeout: 60_000 })

    const stored = (await (await fetch(`${server.baseUrl}/ask/${id}`)).json()) as { answer: string }
    expect(done?.status).toBe('done')
    expect(stored.answer.length).toBeGreaterThan(0)
    expect(answer).toBe(stored.answer)
    expect(new Set(statuses).size).toBe(statuses.length)
    expect(requests.map((request) => request.status)).toEqual([200, 200, 204])
    // The resumed request named the last event the client had: its first token.
    expect(requests[1]?.lastEventId).toBe(ids[0])
    expect(requests[2]?.lastEventId).toMatch(/\.done$/)
  })

  it('sends a late client the whole result, and a client with a foreign Last-Event-ID starts afresh', async () => {
    const posted = await fetch(`${server.baseUrl}/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'LEDの寿命は？', options: { answer: 'generate' } }),
    })
    const { id } = (await posted.json()) as { id: string }
    await vi.waitFor(
      async () =>
        expect(
          ((await (await fetch(`${server.baseUrl}/ask/${id}`)).json()) as { status: string }).status,
        ).toBe('done'),
      { timeout: 60_000 },
    )
    for (const lastEventId of [undefined, 'not-one-of-ours']) {
      const response = await fetch(`${server.baseUrl}/ask/${id}/events`, {
        headers: lastEventId ? { 'last-event-id': lastEventId } : {},
      })
      expect(response.status).toBe(200)
      const text = await response.text()
      expect([...text.matchAll(/^event: (\w+)$/gm)].map((match) => match[1])).toEqual(['done'])
      expect(text).toMatch(/^retry: \d+$/m)
    }
  })
})
