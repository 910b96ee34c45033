import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { bareApp } from '../testing/bare-app.ts'
import { KEY_COOKIE, keyOwner, keyResolver, requireApiKey } from './api-key.ts'
import { KeyAttempts } from './key-attempts.ts'

const gate = (attempts = new KeyAttempts(10), keys = ['key-one', 'key-two']) =>
  bareApp(
    requireApiKey({
      keys,
      // Only the bootstrap keys here: the key table is the integration tests'.
      resolve: keyResolver(keys, async () => null),
      open: (path) => path === '/healthz',
      attempts,
      addressOf: (c) => c.req.header('x-test-address') ?? 'local',
    }),
  )

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

  it('moves a key given in the address into an HttpOnly cookie and back to the same site', async () => {
    const response = await gate().request('/documents?api_key=key-one&x=1')
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('/documents?x=1')
    expect(response.headers.get('set-cookie')).toMatch(
      /^rag_api_key=key-one; Path=\/; HttpOnly; SameSite=Strict/,
    )
    // `//evil.example` would be another site: the way back stays on this one.
    expect((await gate().request('//evil.example/?api_key=key-one')).headers.get('location')).toBe(
      '/evil.example/',
    )
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
    const app = new Hono().get('/owner', (c) => c.text(keyOwner(c)))
    const owner = await (await app.request('/owner', { headers: { authorization: 'Bearer key-one' } })).text()
    expect(owner).toMatch(/^key:[0-9a-f]{32}$/)
    expect(owner).not.toContain('key-one')
    expect(await (await app.request('/owner')).text()).toBe('local')
  })
})
