import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { clientAddress } from './client-address.ts'

/** The address as the gateway would count it, the peer being `peer`. */
async function addressOf(peer: string, forwardedFor: string | undefined, trusted: string[]) {
  const app = new Hono()
  app.get('/', (c) => c.text(clientAddress(c, trusted)))
  const env = { incoming: { socket: { remoteAddress: peer } } }
  const headers: Record<string, string> = forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}
  return (await app.request('/', { headers }, env)).text()
}

describe('clientAddress', () => {
  it('is the peer, whatever X-Forwarded-For claims, unless the peer is a trusted proxy', async () => {
    expect(await addressOf('203.0.113.9', '10.1.1.1', [])).toBe('203.0.113.9')
    expect(await addressOf('::ffff:203.0.113.9', undefined, [])).toBe('203.0.113.9')
  })

  it('behind trusted proxies, is the last forwarded address that is not a proxy', async () => {
    expect(await addressOf('10.0.0.2', '198.51.100.7, 10.0.0.3', ['10.0.0.2', '10.0.0.3'])).toBe(
      '198.51.100.7',
    )
    // A client writing its own X-Forwarded-For cannot pick its address past the proxy's entry.
    expect(await addressOf('10.0.0.2', 'spoofed, 198.51.100.7', ['10.0.0.2'])).toBe('198.51.100.7')
    expect(await addressOf('10.0.0.2', undefined, ['10.0.0.2'])).toBe('10.0.0.2')
  })
})
