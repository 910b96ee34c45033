import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createCollection } from '@rag/access'
import { type IngestionFixture, ingestSamples, startIngestionFixture } from '@rag/ingest/testing'
import { startQuestionWorkers, waitForQuestion } from '@rag/questions/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, keywordOnlySearch, type TestGateway } from '../testing.ts'

// Threads on the sample documents, keyword search and no LLM: a follow-up is made to stand alone
// by carrying the earlier turn's words, and that is what finds its source.
const _sampleDir = fileURLToPath(new URL('../../../../data/sample/', import.meta.url))
const KEYS = ['key-of-alice', 'key-of-bob']

let fixture: IngestionFixture
let gateway: TestGateway
let workers: { close(): Promise<void> }[] = []
let uploadDir: string

beforeAll(async () => {
  fixture = await startIngestionFixture('gateway-conversations')
  uploadDir = await mkdtemp(join(tmpdir(), 'rag-conversations-'))
  const pool = fixture.db.pool
  await ingestSamples(fixture, uploadDir)
  workers = startQuestionWorkers({ ...fixture, pool, retrieval: keywordOnlySearch.retrieval })
  gateway = await createTestGateway(
    { ...fixture, pool },
    { uploadDir, maxBytes: 1e6, maxFiles: 5 },
    { access: { apiKeys: KEYS, corsOrigins: [], askPerMinute: 0, uploadsPerMinute: 0 } },
  )
})

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.close()))
  await gateway?.close()
  await fixture?.close()
  await rm(uploadDir, { recursive: true, force: true })
})

const call = (path: string, key: string, init: { method?: string; json?: unknown } = {}) =>
  gateway.app.request(path, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  })

interface Turn {
  status: string
  question: string
  searchQuery: string | null
  answer: string | null
  refused: boolean | null
  sources: { sourceId: string }[]
  conversationId: string | null
}

async function say(thread: string, message: string, key = KEYS[0] as string): Promise<Turn> {
  const response = await call(`/conversations/${thread}/messages`, key, {
    json: { message, options: { mode: 'keyword', answer: 'extractive' } },
  })
  expect(response.status, await response.clone().text()).toBe(202)
  const { id } = (await response.json()) as { id: string }
  await waitForQuestion(fixture.db.pool, id)
  return (await (await call(`/ask/${id}`, key)).json()) as Turn
}

async function newThread(json: Record<string, unknown> = {}, key = KEYS[0] as string) {
  const response = await call('/conversations', key, { json })
  expect(response.status).toBe(201)
  return ((await response.json()) as { id: string }).id
}

describe('conversations', () => {
  it('answers a Japanese follow-up from the source its rewritten query finds', async () => {
    const thread = await newThread()
    const first = await say(thread, '保証期間は何年ですか')
    expect(first.sources[0]?.sourceId).toBe('lumina-guide.pdf:p5')
    expect(first.searchQuery).toBeNull()
    // Alone, 「それは延長できますか」 names nothing the documents hold.
    const follow = await say(thread, 'それは延長できますか')
    expect(follow.searchQuery).toBe('保証 期間 それは延長できますか')
    expect(follow.sources[0]?.sourceId).toBe('lumina-guide.pdf:p5')
    expect(follow.conversationId).toBe(thread)
    // A turn is kept as long as its thread: no expiry, said as null (not "Infinity").
    expect((follow as unknown as { expiresAt: unknown }).expiresAt).toBeNull()
    // And one the warranty page answers: the answer is taken from it.
    const third = await say(thread, 'その保証書は何と一緒に保管しますか')
    expect(third.sources[0]?.sourceId).toBe('lumina-guide.pdf:p5')
    expect(third.answer).toContain('領収書')
  })

  it('answers an English follow-up the same way', async () => {
    const thread = await newThread()
    expect((await say(thread, 'What is the return policy?')).sources[0]?.sourceId).toBe('faq.csv:r5')
    const follow = await say(thread, 'Can I extend it?')
    expect(follow.searchQuery).toBe('return policy Can I extend it?')
    expect(follow.sources[0]?.sourceId).toBe('faq.csv:r5')
  })

  it('lists, renames and deletes threads, each named after its first question until renamed', async () => {
    const thread = await newThread()
    await say(thread, 'LEDの寿命は？')
    const listed = (await (await call('/conversations', KEYS[0] as string)).json()) as {
      conversations: { id: string; title: string; turns: number }[]
    }
    expect(listed.conversations[0]).toMatchObject({ id: thread, title: 'LEDの寿命は？', turns: 1 })
    const renamed = await call(`/conversations/${thread}`, KEYS[0] as string, {
      method: 'PATCH',
      json: { title: 'LED' },
    })
    expect(await renamed.json()).toMatchObject({ id: thread, title: 'LED' })
    const detail = (await (await call(`/conversations/${thread}`, KEYS[0] as string)).json()) as {
      turns: Turn[]
    }
    expect(detail.turns.map((turn) => turn.question)).toEqual(['LEDの寿命は？'])
    expect((await call(`/conversations/${thread}`, KEYS[0] as string, { method: 'DELETE' })).status).toBe(204)
    expect((await call(`/conversations/${thread}`, KEYS[0] as string)).status).toBe(404)
  })

  it('keeps a thread scoped to its collection, which must exist', async () => {
    const misspelt = await call('/conversations', KEYS[0] as string, { json: { collection: 'nothing-here' } })
    expect(misspelt.status).toBe(404)
    expect(await misspelt.text()).toContain('no collection \\"nothing-here\\"')
    await createCollection(fixture.db.pool, 'nothing-here') // begun, no documents yet
    const thread = await newThread({ collection: 'nothing-here' })
    const turn = await say(thread, '保証期間は何年ですか')
    expect(turn.sources).toEqual([])
    expect(turn.refused).toBe(true)
  })

  it("never shows or takes messages for another key's thread, and refuses bad messages clearly", async () => {
    const thread = await newThread()
    const bob = KEYS[1] as string
    expect((await call(`/conversations/${thread}`, bob)).status).toBe(404)
    expect((await call(`/conversations/${thread}/messages`, bob, { json: { message: 'hi' } })).status).toBe(
      404,
    )
    expect((await call(`/conversations/${thread}`, bob, { method: 'DELETE' })).status).toBe(404)
    const bobs = (await (await call('/conversations', bob)).json()) as { conversations: { id: string }[] }
    expect(bobs.conversations.map((c) => c.id)).not.toContain(thread)

    const unknown = await call(
      '/conversations/6f1c0a52-3a5e-4b7f-9d3e-0c6a1e2b7f10/messages',
      KEYS[0] as string,
      {
        json: { message: 'hi' },
      },
    )
    expect(unknown.status).toBe(404)
    const long = await call(`/conversations/${thread}/messages`, KEYS[0] as string, {
      json: { message: 'あ'.repeat(2001) },
    })
    expect(long.status).toBe(413)
    expect(((await long.json()) as { error: { message: string } }).error.message).toMatch(/2000 characters/)
    const empty = await call(`/conversations/${thread}/messages`, KEYS[0] as string, {
      json: { message: '  ' },
    })
    expect(empty.status).toBe(400)
    expect((await call('/conversations/not-a-uuid', KEYS[0] as string)).status).toBe(400)
  })
})
