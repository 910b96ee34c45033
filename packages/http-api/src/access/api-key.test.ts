import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { bareApp } from '../testing/bare-app.ts'
import { keyOwner, keyResolver, requireApiKey } from './api-key.ts'
import { KeyAttempts } from './key-attempts.ts'
import { KEY_COOKIE, SECURE_KEY_COOKIE } from './key-cookie.ts'

const keyCheck = (attempts = new KeyAttempts(10), keys = ['key-one', 'key-two']) =>
  requireApiKey({
    keys,
    // Only the bootstrap keys here: the key table is the integration tests'.
    resolve: keyResolver(keys, async () => null),
    open: (path) => path === '/healthz',
    attempts,
    addressOf: (c) => c.req.header('x-test-address') ?? 'local',
    isSecure: (c) => c.req.header('x-test-tls') === 'yes',
  })
const gate = (attempts?: KeyAttempts, keys?: string[]) => bareApp(keyCheck(attempts, keys))

describe('requireApiKey', () => {
  it('lets open paths through, and refuses others without a key, saying how to send one', async () => {
    const app = gate()
    expect((await app.request('/healthz')).status).toBe(200)
    const refused = await app.request('/documents')
    expect(refused.status).toBe(401)
    // The challenge says a key is expected, so a client does not start an OAuth login instead.
    expect(refused.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="rag", error_description="[^"]*API_KEY[^"]*no OAuth login\)"$/,
    )
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /^an API key is required: .*Authorization: Bearer <key> or X-API-Key: <key>/,
    )
  })

  it('accepts a configured key as bearer, header or cookie, and refuses a wrong one', async () => {
    const app = gate()
    expect((await app.request('/x', { headers: { authorization: 'Bearer key-one' } })).status).toBe(200)
    expect((await app.request('/x', { headers: { 'x-api-key': 'key-two' } })).status).toBe(200)
    expect((await app.request('/x', { headers: { cookie: `a=b; ${KEY_COOKIE}=key-one` } })).status).toBe(200)
    const wrong = await app.request('/x', { headers: { authorization: 'Bearer nope' } })
    expect(wrong.status).toBe(401)
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer realm="rag", error="invalid_token", /)
  })

  it('never takes a key from the address: a link cannot sign a browser in as whoever made it', async () => {
    const response = await gate().request('/documents?api_key=key-one&x=1')
    expect(response.status).toBe(400)
    expect(response.headers.get('set-cookie')).toBeNull()
    expect(await response.text()).toMatch(/a key in the address \(\?api_key=\) is not accepted/)
    // An open path answers as itself, and sets nothing either.
    const open = await gate().request('/healthz?api_key=key-one')
    expect(open.status).toBe(200)
    expect(open.headers.get('set-cookie')).toBeNull()
  })

  it('refuses and clears two key cookies (one tossed by another site on this host), never taking the first', async () => {
    const tossed = { cookie: `${KEY_COOKIE}=key-two; ${KEY_COOKIE}=key-one` }
    const response = await gate().request('/ask/123', { headers: tossed })
    expect(response.status).toBe(400)
    expect(await response.text()).toMatch(/carries 2 rag_api_key cookies/)
    // Cleared at every narrower path it can have been set for from this host; the gateway's own
    // (Path=/) stays, so the next request is the signed-in user's again.
    const cleared = response.headers.getSetCookie()
    for (const path of ['/ask', '/ask/123'])
      expect(cleared).toContain(`${KEY_COOKIE}=; Path=${path}; HttpOnly; SameSite=Strict; Max-Age=0`)
    expect(cleared.some((header) => header.includes('Path=/;'))).toBe(false)
    // Health still answers (and clears them).
    const health = await gate().request('/healthz', { headers: tossed })
    expect(health.status).toBe(200)
    expect(health.headers.getSetCookie().length).toBeGreaterThan(0)
  })

  it('answers a cookie that does not decode with 400 on any route, never a 500', async () => {
    const broken = { cookie: `${KEY_COOKIE}=%E0%A4%A` }
    const response = await gate().request('/documents', { headers: broken })
    expect(response.status).toBe(400)
    expect(await response.text()).toMatch(/not validly encoded/)
    expect(response.headers.getSetCookie()).toContain(
      `${KEY_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`,
    )
    expect((await gate().request('/healthz', { headers: broken })).status).toBe(200)
  })

  it('behind TLS reads only the __Host- cookie, which another site cannot set', async () => {
    const tls = { 'x-test-tls': 'yes' }
    expect(
      (await gate().request('/x', { headers: { ...tls, cookie: `${KEY_COOKIE}=key-one` } })).status,
    ).toBe(401)
    expect(
      (await gate().request('/x', { headers: { ...tls, cookie: `${SECURE_KEY_COOKIE}=key-one` } })).status,
    ).toBe(200)
  })

  it('refuses an address with 429 past its wrong keys a minute, whatever key it then presents', async () => {
    let now = 0
    const app = gate(new KeyAttempts(3, () => now))
    const from = (address: string, key: string) =>
      app.request('/x', { headers: { authorization: `Bearer ${key}`, 'x-test-address': address } })
    for (let i = 0; i < 3; i++) expect((await from('10.0.0.1', 'guess')).status).toBe(401)
    const blocked = await from('10.0.0.1', 'key-one')
    expect(blocked.status).toBe(429)
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await from('10.0.0.2', 'key-one')).status).toBe(200)
    now += 60_000
    expect((await from('10.0.0.1', 'key-one')).status).toBe(200)
  })

  it('lets everything through when no key is configured (a loopback-only gateway)', async () => {
    expect((await gate(new KeyAttempts(10), []).request('/documents')).status).toBe(200)
  })

  it('names a request by a fingerprint of its key, never the key', async () => {
    const app = new Hono().use(keyCheck(undefined, [])).get('/owner', (c) => c.text(keyOwner(c)))
    const owner = await (await app.request('/owner', { headers: { authorization: 'Bearer key-one' } })).text()
    expect(owner).toMatch(/^key:[0-9a-f]{32}$/)
    expect(owner).not.toContain('key-one')
    expect(await (await app.request('/owner')).text()).toBe('local')
  })
})
