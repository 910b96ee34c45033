import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { publicOrigin } from './public-origin.ts'

async function originSeen(peer: string, headers: Record<string, string>, trusted: string[]) {
  const app = new Hono()
  app.get('/', (c) => c.text(publicOrigin(c, trusted)))
  return (
    await app.request(
      'http://gateway.internal:3000/',
      { headers },
      { incoming: { socket: { remoteAddress: peer } } },
    )
  ).text()
}

describe('publicOrigin', () => {
  it('behind a trusted TLS proxy, is https at the host the client reached', async () => {
    const proxied = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'rag.example.com' }
    expect(await originSeen('10.0.0.2', proxied, ['10.0.0.2'])).toBe('https://rag.example.com')
    expect(await originSeen('10.0.0.2', { 'x-forwarded-proto': 'https' }, ['10.0.0.2'])).toBe(
      'https://gateway.internal:3000',
    )
  })

  it("is the request's own for anyone else, whatever they claim", async () => {
    const claimed = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' }
    expect(await originSeen('203.0.113.9', claimed, ['10.0.0.2'])).toBe('http://gateway.internal:3000')
  })
})
