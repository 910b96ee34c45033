import { hashKey, type KeySession } from '@rag/access'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { bareApp } from '../testing/bare-app.ts'
import { keyOwner, keyResolver, requireApiKey } from './api-key.ts'
import { KeyAttempts } from './key-attempts.ts'
import { KEY_COOKIE, SECURE_KEY_COOKIE } from './key-cookie.ts'

// Browser sessions of the keys, as Postgres would keep them: a session of the admin key, one of
// the second key (an editor), and one made when the second key stood for someone else.
const SESSIONS: Record<string, KeySession> = {
  rag_kse_admin: { id: 'session-admin', keyHash: hashKey('key-one'), principalId: 'bootstrap' },
  rag_kse_editor: {
    id: 'session-editor',
    keyHash: hashKey('key-two'),
    principalId: `key:${hashKey('key-two').slice(0, 32)}`,
  },
  rag_kse_stale: { id: 'session-stale', keyHash: hashKey('key-two'), principalId: 'key:someone-else' },
}
const keyCheck = (attempts = new KeyAttempts(10), keys = ['key-one', 'key-two']) =>
  requireApiKey({
    keys,
    // Only the bootstrap keys here: the key table is the integration tests'.
    resolve: keyResolver(keys, async () => null, {
      keySessionOf: async (token) => SESSIONS[token] ?? null,
      principalOfKeyHash: async () => null,
    }),
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

  it('accepts a configured key as bearer or header, a session of it as cookie, and refuses a wrong one', async () => {
    const app = gate()
    expect((await app.request('/x', { headers: { authorization: 'Bearer key-one' } })).status).toBe(200)
    expect((await app.request('/x', { headers: { 'x-api-key': 'key-two' } })).status).toBe(200)
    expect(
      (await app.request('/x', { headers: { cookie: `a=b; ${KEY_COOKIE}=rag_kse_admin` } })).status,
    ).toBe(200)
    const wrong = await app.request('/x', { headers: { authorization: 'Bearer nope' } })
    expect(wrong.status).toBe(401)
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer realm="rag", error="invalid_token", /)
  })

  it('never takes a key from a cookie (another site on this host can set one): 400, cleared', async () => {
    const response = await gate().request('/x', { headers: { cookie: `${KEY_COOKIE}=key-one` } })
    expect(response.status).toBe(400)
    expect(await response.text()).toMatch(/cookie holds no sign-in session/)
    expect(response.headers.getSetCookie()).toContain(
      `${KEY_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`,
    )
    expect((await gate().request('/healthz', { headers: { cookie: `${KEY_COOKIE}=key-one` } })).status).toBe(
      200,
    )
  })

  it('refuses and clears a session cookie that names another sign-in than the page made', async () => {
    const app = gate()
    const bound = (token: string, session: string) => ({
      headers: { cookie: `${KEY_COOKIE}=${token}`, 'x-rag-session': session },
    })
    expect((await app.request('/x', bound('rag_kse_admin', 'session-admin'))).status).toBe(200)
    // The page signed in as the admin; a page on another port replaced the cookie with its own.
    const replaced = await app.request('/x', bound('rag_kse_editor', 'session-admin'))
    expect(replaced.status).toBe(401)
    expect(await replaced.text()).toMatch(/sign-in cookie changed without a sign-in here/)
    expect(replaced.headers.getSetCookie()).toContain(
      `${KEY_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`,
    )
    // On an open path nobody is signed in by it either.
    const open = new Hono()
      .use(keyCheck())
      .get('/healthz', (c) => c.text(c.get('principal')?.name ?? 'nobody'))
    expect(await (await open.request('/healthz', bound('rag_kse_editor', 'session-admin'))).text()).toBe(
      'nobody',
    )
  })

  it('refuses a session whose key now stands for someone else than at sign-in', async () => {
    const app = gate()
    expect((await app.request('/x', { headers: { cookie: `${KEY_COOKIE}=rag_kse_editor` } })).status).toBe(
      200,
    )
    expect((await app.request('/x', { headers: { cookie: `${KEY_COOKIE}=rag_kse_stale` } })).status).toBe(401)
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
      (await gate().request('/x', { headers: { ...tls, cookie: `${KEY_COOKIE}=rag_kse_admin` } })).status,
    ).toBe(401)
    expect(
      (await gate().request('/x', { headers: { ...tls, cookie: `${SECURE_KEY_COOKIE}=rag_kse_admin` } }))
        .status,
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
    // Signed in through a browser, a key owns what the key owns.
    const gated = new Hono().use(keyCheck()).get('/owner', (c) => c.text(keyOwner(c)))
    const byKey = await (
      await gated.request('/owner', { headers: { authorization: 'Bearer key-two' } })
    ).text()
    const bySession = await gated.request('/owner', { headers: { cookie: `${KEY_COOKIE}=rag_kse_editor` } })
    expect(await bySession.text()).toBe(byKey)
  })
})
