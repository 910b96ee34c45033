import { type IngestionFixture, startIngestionFixture } from '@rag/ingest/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AccessOptions } from '../create-app.ts'
import { createTestGateway, type TestGateway } from '../testing.ts'

// Each test builds its own gateway, so counts of wrong keys never carry from one test to another.
let fixture: IngestionFixture
const gateways: TestGateway[] = []

beforeAll(async () => {
  fixture = await startIngestionFixture('gateway-hardening')
})
afterAll(async () => {
  await Promise.all(gateways.map((gateway) => gateway.close()))
  await fixture?.close()
})

async function gatewayWith(access: Partial<AccessOptions> = {}) {
  const gateway = await createTestGateway(
    { ...fixture, pool: fixture.db.pool },
    { uploadDir: '/nonexistent', maxBytes: 1000, maxFiles: 1 },
    {
      access: {
        apiKeys: ['a-long-enough-test-key'],
        corsOrigins: ['https://app.example'],
        askPerMinute: 0,
        uploadsPerMinute: 0,
        ...access,
      },
    },
  )
  gateways.push(gateway)
  return (path: string, init: RequestInit = {}) => gateway.app.request(`http://127.0.0.1:3000${path}`, init)
}

type Request = Awaited<ReturnType<typeof gatewayWith>>

const admin = { authorization: 'Bearer a-long-enough-test-key' }

/** A reader's key made by the admin: the key (shown once) and its id. */
async function readerKey(request: Request, name: string) {
  const made = await request('/keys', {
    method: 'POST',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify({ name, role: 'reader' }),
  })
  return (await made.json()) as { key: string; id: string }
}

/** A browser signed in with the admin key, as the web app does: the cookie it then holds. */
async function signedIn(request: Request, apiKey = 'a-long-enough-test-key') {
  const response = await request('/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
    body: JSON.stringify({ apiKey }),
  })
  expect(response.status).toBe(204)
  return { cookie: response.headers.get('set-cookie')?.split(';')[0] ?? '' }
}

describe('cross-site requests (CSRF)', () => {
  it('a page on another port of the same host cannot use the cookie to upload or re-index', async () => {
    const request = await gatewayWith()
    const cookie = await signedIn(request)
    const fromOtherPort = { ...cookie, origin: 'http://127.0.0.1:8765', 'sec-fetch-site': 'same-site' }
    const upload = await request('/documents', {
      method: 'POST',
      headers: { ...fromOtherPort, 'content-type': 'multipart/form-data; boundary=x' },
      body: '--x--\r\n',
    })
    expect(upload.status).toBe(403)
    expect(await upload.text()).toMatch(/cross-origin POST refused \(from http:\/\/127\.0\.0\.1:8765\)/)
    expect((await request('/reindex', { method: 'POST', headers: fromOtherPort })).status).toBe(403)
    // An older browser without Sec-Fetch-Site: its Origin decides.
    const legacy = { ...cookie, origin: 'http://127.0.0.1:8765' }
    expect((await request('/reindex', { method: 'POST', headers: legacy })).status).toBe(403)
  })

  it('the gateway own pages, configured origins and programs go on', async () => {
    const request = await gatewayWith()
    const cookie = await signedIn(request)
    const sameOrigin = { ...cookie, origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-origin' }
    expect((await request('/reindex', { method: 'POST', headers: sameOrigin })).status).toBe(202)
    const legacySameOrigin = { ...cookie, origin: 'http://127.0.0.1:3000' }
    expect((await request('/reindex', { method: 'POST', headers: legacySameOrigin })).status).toBe(202)
    const cors = {
      authorization: 'Bearer a-long-enough-test-key',
      origin: 'https://app.example',
      'sec-fetch-site': 'cross-site',
    }
    expect((await request('/reindex', { method: 'POST', headers: cors })).status).toBe(202)
    const program = { authorization: 'Bearer a-long-enough-test-key' }
    expect((await request('/reindex', { method: 'POST', headers: program })).status).toBe(202)
  })

  it('without keys (loopback only) a cross-site page cannot write either', async () => {
    const request = await gatewayWith({ apiKeys: [], corsOrigins: [] })
    const crossSite = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }
    expect((await request('/reindex', { method: 'POST', headers: crossSite })).status).toBe(403)
    expect((await request('/documents', { headers: crossSite })).status).toBe(200)
  })
})

describe('guessing keys', () => {
  it('wrong keys on any route, in any header or cookie, share one limit per address', async () => {
    const request = await gatewayWith()
    const tries = [
      () =>
        request('/documents', {
          headers: { authorization: 'Bearer guess-1', 'x-forwarded-for': '10.0.0.1' },
        }),
      () => request('/search?q=x', { headers: { 'x-api-key': 'guess-2', 'x-forwarded-for': '10.0.0.2' } }),
      () => request('/healthz', { headers: { cookie: 'rag_api_key=rag_kse_guess-3' } }),
      () =>
        request('/session', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ apiKey: 'guess-4' }),
        }),
    ]
    const statuses: number[] = []
    for (let i = 0; i < 12; i++)
      statuses.push((await (tries[i % tries.length] as () => Promise<Response>)()).status)
    // A cookie on the open /healthz answers as health does; a wrong one still counts.
    expect(statuses.slice(0, 10).filter((status) => status === 429)).toEqual([])
    expect(statuses.slice(0, 10).filter((status) => status === 401)).toHaveLength(8)
    expect(statuses.slice(10)).toEqual([429, 429])
    // Locked out: even the right key waits (else the oracle would simply go on).
    const right = await request('/documents', { headers: { authorization: 'Bearer a-long-enough-test-key' } })
    expect(right.status).toBe(429)
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  it('X-Forwarded-For names the client only when it comes from a configured proxy', async () => {
    const request = await gatewayWith({ trustedProxies: ['local'] })
    for (let i = 0; i < 10; i++) {
      await request('/documents', {
        headers: { authorization: `Bearer guess-${i}`, 'x-forwarded-for': '198.51.100.7' },
      })
    }
    const blocked = await request('/documents', {
      headers: { authorization: 'Bearer guess', 'x-forwarded-for': '198.51.100.7' },
    })
    expect(blocked.status).toBe(429)
    const otherClient = await request('/documents', {
      headers: { authorization: 'Bearer a-long-enough-test-key', 'x-forwarded-for': '198.51.100.8' },
    })
    expect(otherClient.status).toBe(200)
  })
})

describe('signing in', () => {
  it('a key in the address signs nobody in: 400, no cookie', async () => {
    const request = await gatewayWith()
    const response = await request('/admin/queues?api_key=a-long-enough-test-key')
    expect(response.status).toBe(400)
    expect(response.headers.get('set-cookie')).toBeNull()
  })

  it('never replaces a browser signed in as someone else silently: 409, or replace: true and an audit entry', async () => {
    const request = await gatewayWith()
    const other = (await readerKey(request, 'other')).key
    const cookie = await signedIn(request)
    const signIn = (body: Record<string, unknown>) =>
      request('/session', {
        method: 'POST',
        headers: { ...cookie, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
        body: JSON.stringify(body),
      })
    const refused = await signIn({ apiKey: other })
    expect(refused.status).toBe(409)
    expect(refused.headers.get('set-cookie')).toBeNull()
    expect(await refused.text()).toMatch(/already signed in as API_KEY \(admin\)/)
    // The same key again is no switch.
    expect((await signIn({ apiKey: 'a-long-enough-test-key' })).status).toBe(204)
    const switched = await signIn({ apiKey: other, replace: true })
    expect(switched.status).toBe(204)
    const audit = await request('/audit?action=sign-in', { headers: admin })
    const entries = ((await audit.json()) as { entries: { detail: Record<string, unknown> }[] }).entries
    expect(entries[0]?.detail.replaced).toBe('bootstrap')
  })

  it('keeps a session of the key in the cookie, never the key: signing out or revoking the key ends it', async () => {
    const request = await gatewayWith()
    const { key, id } = await readerKey(request, 'reader')
    const browser = await signedIn(request, key)
    expect(browser.cookie).toMatch(/^rag_api_key=rag_kse_[\w-]{40,}$/)
    expect(browser.cookie).not.toContain(key.slice(4))
    const who = await request('/session', { headers: browser })
    const session = (await who.json()) as { principal: { name: string }; session: string }
    expect(session.principal.name).toBe('reader')
    expect(session.session).toMatch(/^[0-9a-f-]{36}$/)
    // What the browser asks is the key's: its conversations and limits are the key's.
    expect((await request('/documents', { headers: browser })).status).toBe(200)
    // Signed out, a copy of the cookie is refused (the key itself still holds).
    const out = await request('/session', {
      method: 'DELETE',
      headers: { ...browser, 'sec-fetch-site': 'same-origin' },
    })
    expect(out.status).toBe(204)
    expect((await request('/documents', { headers: browser })).status).toBe(401)
    expect((await request('/documents', { headers: { authorization: `Bearer ${key}` } })).status).toBe(200)
    // Signed in again, then the key revoked: the browser is out at its next request.
    const again = await signedIn(request, key)
    expect((await request('/documents', { headers: again })).status).toBe(200)
    expect((await request(`/keys/${id}`, { method: 'DELETE', headers: admin })).status).toBe(200)
    expect((await request('/documents', { headers: again })).status).toBe(401)
  })
})
