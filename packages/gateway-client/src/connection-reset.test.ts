import { describe, expect, it } from 'vitest'
import { createGatewayClient } from './gateway-client.ts'

/** A fetch whose first request finds its kept-alive socket closed by the server, as undici reports it. */
function resetOnce() {
  const sent: string[] = []
  const fetch = async (url: string, init: RequestInit) => {
    sent.push(`${init.method ?? 'GET'} ${new URL(url).pathname}`)
    if (sent.length === 1)
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      })
    return Response.json(
      { documents: [], id: 'x', status: 'queued', links: { self: '/ask/x', events: '/ask/x/events' } },
      { status: 200 },
    )
  }
  return { fetch, sent }
}

describe('a connection the gateway closed under a request', () => {
  it('is tried once more for a request that changes nothing, and fails plainly for one that does', async () => {
    const reading = resetOnce()
    await expect(
      createGatewayClient({ baseUrl: 'http://gateway', fetch: reading.fetch }).listDocuments(),
    ).resolves.toEqual([])
    expect(reading.sent).toEqual(['GET /documents', 'GET /documents'])

    // A question sent may have arrived: it is not sent twice.
    const asking = resetOnce()
    await expect(
      createGatewayClient({ baseUrl: 'http://gateway', fetch: asking.fetch }).ask('q'),
    ).rejects.toThrow(/cannot reach the gateway at http:\/\/gateway \(fetch failed: read ECONNRESET\)/)
    expect(asking.sent).toEqual(['POST /ask'])
  })
})
