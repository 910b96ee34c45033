import type { AddressInfo } from 'node:net'
import { createServer } from 'node:net'
import { serve } from '@hono/node-server'
import { createPool, type Pool } from '@rag/db'
import { createGatewayClient } from '@rag/gateway-client'
import { type IngestionFixture, startIngestionFixture } from '@rag/ingest/testing'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestGateway, type TestGateway } from './testing.ts'

// Postgres away (restarting, or gone): a request cannot be served, but it is no fault of the
// request or of ours, and the client is told to send it again rather than shown a 500.
let fixture: IngestionFixture
let away: Pool
let gateway: TestGateway

/** An address where no Postgres listens: connecting is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

beforeAll(async () => {
  fixture = await startIngestionFixture('database-away')
  away = createPool({ url: `postgres://postgres@127.0.0.1:${await closedPort()}/test`, max: 2 })
  gateway = await createTestGateway(
    { ...fixture, pool: away },
    { uploadDir: '/nonexistent', maxBytes: 1, maxFiles: 1 },
  )
})
afterAll(async () => {
  await gateway?.close()
  await away?.end()
  await fixture?.close()
})

it('answers 503 with Retry-After, saying what is away, on reads and writes alike', async () => {
  const responses = [
    await gateway.app.request('/documents'),
    await gateway.app.request('/ask', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: '保証期間は何年ですか' }),
    }),
  ]
  for (const response of responses) {
    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('5')
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /^the database( or the queue)? is unavailable right now; the request was not completed: send it again/,
    )
  }
})

it('the gateway client (CLI, MCP) waits a 503 out as it says, and tells why', async () => {
  const server = serve({ fetch: gateway.app.fetch, hostname: '127.0.0.1', port: 0 })
  await new Promise((resolve) => server.once('listening', resolve))
  try {
    const told: string[] = []
    const client = createGatewayClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      maxRateLimitWaits: 1,
      onRateLimited: (seconds, _path, why) => told.push(`${why} ${seconds}`),
    })
    await expect(client.listDocuments()).rejects.toThrow(/the database.* is unavailable right now/)
    expect(told).toEqual(['unavailable 5'])
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
})
