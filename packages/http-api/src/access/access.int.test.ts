import { type IngestionFixture, startIngestionFixture } from '@rag/ingest/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type TestGateway } from '../testing.ts'

let fixture: IngestionFixture
let gateway: TestGateway

beforeAll(async () => {
  fixture = await startIngestionFixture('gateway-access')
  gateway = await createTestGateway(
    { ...fixture, pool: fixture.db.pool },
    { uploadDir: '/nonexistent', maxBytes: 1, maxFiles: 1 },
    {
      access: {
        apiKeys: ['key-one', 'key-two', 'key-three'],
        corsOrigins: ['https://app.example'],
        askPerMinute: 2,
        uploadsPerMinute: 5,
      },
    },
  )
})
afterAll(async () => {
  await gateway?.close()
  await fixture?.close()
})

const request = (path: string, init: RequestInit = {}) => gateway.app.request(path, init)
const ask = (headers: Record<string, string>) =>
  request('/ask', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ question: '保証期間は？', options: { answer: 'none' } }),
  })

describe('API keys', () => {
  it('leave health open and refuse everything else without a key, saying how to send one', async () => {
    expect((await request('/healthz')).status).not.toBe(401)
    for (const path of ['/documents', '/search?q=x', '/ask/00000000-0000-4000-8000-000000000000']) {
      const response = await request(path)
      expect(response.status, path).toBe(401)
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="rag"/)
      expect(await response.text()).toMatch(/Authorization: Bearer <key> or X-API-Key/)
    }
    expect((await ask({})).status).toBe(401)
  })

  it('refuse a wrong key and accept any configured one, as bearer or header', async () => {
    const wrong = await request('/documents', { headers: { authorization: 'Bearer nope' } })
    expect(wrong.status).toBe(401)
    expect(await wrong.text()).toMatch(/invalid API key/)
    expect((await request('/documents', { headers: { authorization: 'Bearer key-one' } })).status).toBe(200)
    expect((await request('/documents', { headers: { 'x-api-key': 'key-two' } })).status).toBe(200)
  })
})

describe('rate limits', () => {
  it('answer 429 with Retry-After past the questions a minute, per key', async () => {
    expect((await ask({ authorization: 'Bearer key-one' })).status).toBe(202)
    expect((await ask({ authorization: 'Bearer key-one' })).status).toBe(202)
    const limited = await ask({ authorization: 'Bearer key-one' })
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await limited.text()).toMatch(/at most 2 a minute/)
    // Another key has its own allowance; polling is not limited.
    expect((await ask({ 'x-api-key': 'key-two' })).status).toBe(202)
    expect((await request('/documents', { headers: { authorization: 'Bearer key-one' } })).status).toBe(200)
  })
})

describe('rate limits on web pages', () => {
  it('count a page fetched for ingestion as an upload', async () => {
    const fetchPage = () =>
      request('/documents/url', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'key-two' },
        body: JSON.stringify({ url: 'http://127.0.0.1:9/private.html' }),
      })
    for (let i = 0; i < 5; i++) expect((await fetchPage()).status).not.toBe(429)
    const limited = await fetchPage()
    expect(limited.status).toBe(429)
    expect(await limited.text()).toMatch(/too many uploads: at most 5 a minute/)
  })
})

describe('CORS', () => {
  it('answers preflights for configured origins only, before any key is asked for', async () => {
    const allowed = await request('/ask', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    })
    expect(allowed.status).toBe(204)
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example')
    // The headers browser clients really send: the openai SDK's, MCP's, a resuming event stream's.
    const asked =
      'authorization, content-type, x-stainless-os, x-stainless-retry-count, mcp-protocol-version, mcp-session-id, last-event-id'
    const clients = await request('/v1/chat/completions', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': asked,
      },
    })
    const allowedHeaders = clients.headers
      .get('access-control-allow-headers')
      ?.toLowerCase()
      .split(/\s*,\s*/)
    for (const header of asked.split(', ')) expect(allowedHeaders).toContain(header)
    const other = await request('/documents', {
      headers: { origin: 'https://evil.example', authorization: 'Bearer key-one' },
    })
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
  })
})

describe('owners and the admin key', () => {
  it("answers 404 to a key asking for another key's question, its events or its cancellation", async () => {
    const asked = await ask({ authorization: 'Bearer key-three' })
    expect(asked.status).toBe(202)
    const { id } = (await asked.json()) as { id: string }
    const as = (key: string, path: string, init: RequestInit = {}) =>
      request(path, { ...init, headers: { authorization: `Bearer ${key}` } })
    expect((await as('key-three', `/ask/${id}`)).status).toBe(200)
    for (const key of ['key-two', 'key-one']) {
      expect((await as(key, `/ask/${id}`)).status).toBe(404)
      expect((await as(key, `/ask/${id}/events`)).status).toBe(404)
      expect((await as(key, `/ask/${id}`, { method: 'DELETE' })).status).toBe(404)
    }
    // Redis names a caller by its key's fingerprint, never by the key.
    const names = await fixture.producer.redis.keys(`${fixture.prefix}:*`)
    expect(names.filter((name) => /key-(one|two|three)/.test(name))).toEqual([])
  })

  it('opens the queue dashboard and re-indexing everything to the admin key (the first) only', async () => {
    const as = (key: string, path: string, init: RequestInit = {}) =>
      request(path, { ...init, headers: { authorization: `Bearer ${key}` } })
    expect((await as('key-two', '/admin/queues')).status).toBe(403)
    expect((await as('key-two', '/admin/queues/api/queues')).status).toBe(403)
    const refused = await as('key-two', '/reindex', { method: 'POST' })
    expect(refused.status).toBe(403)
    expect(await refused.text()).toMatch(/needs the admin role; this key's role is editor/)
    expect((await as('key-one', '/reindex', { method: 'POST' })).status).toBe(202)
  })
})

describe('the queue dashboard', () => {
  it('refuses a request without the key, and with it serves the queues page and their API', async () => {
    expect((await request('/admin/queues')).status).toBe(401)
    const page = await request('/admin/queues', { headers: { authorization: 'Bearer key-one' } })
    expect(page.status).toBe(200)
    expect(await page.text()).toMatch(/<div id="root">/)
    const queues = await request('/admin/queues/api/queues', { headers: { authorization: 'Bearer key-one' } })
    expect(queues.status).toBe(200)
    const names = ((await queues.json()) as { queues: { name: string }[] }).queues.map((q) => q.name).sort()
    // A browser: signed in once (POST /session, as the web app does), then the cookie.
    const login = await request('/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: 'key-one' }),
    })
    expect(login.status).toBe(204)
    const cookie = login.headers.get('set-cookie')?.split(';')[0] ?? ''
    expect(cookie).toMatch(/^rag_api_key=rag_kse_/)
    expect((await request('/admin/queues', { headers: { cookie } })).status).toBe(200)
    expect(names).toEqual([
      'ingest.chunk',
      'ingest.embed',
      'ingest.ocr',
      'ingest.parse',
      'ingest.store',
      'question.generate',
      'question.rerank',
      'question.retrieve',
      'source.sync',
    ])
  })
})
