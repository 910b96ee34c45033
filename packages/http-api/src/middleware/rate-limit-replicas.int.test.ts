import { type IngestionFixture, startIngestionFixture } from '@rag/ingest/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type TestGateway } from '../testing.ts'

// Two gateway replicas of one installation (same Redis, same prefix), as behind a load balancer.
let fixture: IngestionFixture
let replicas: TestGateway[] = []

beforeAll(async () => {
  fixture = await startIngestionFixture('gateway-rate-replicas')
  const access = {
    apiKeys: ['replica-key-0123456789'],
    corsOrigins: [],
    askPerMinute: 3,
    uploadsPerMinute: 5,
  }
  replicas = await Promise.all(
    [1, 2].map(() =>
      createTestGateway(
        { ...fixture, pool: fixture.db.pool },
        { uploadDir: '/nonexistent', maxBytes: 1, maxFiles: 1 },
        { access },
      ),
    ),
  )
})
afterAll(async () => {
  for (const replica of replicas) await replica.close()
  await fixture?.close()
})

const ask = (replica: TestGateway | undefined) =>
  replica?.app.request('/ask', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer replica-key-0123456789' },
    body: JSON.stringify({ question: '保証期間は？', options: { answer: 'none' } }),
  })

describe('rate limits across gateway replicas', () => {
  it('hold for the installation, not per replica: the fourth question a minute is refused wherever it lands', async () => {
    const [a, b] = replicas
    expect((await ask(a))?.status).toBe(202)
    expect((await ask(b))?.status).toBe(202)
    expect((await ask(a))?.status).toBe(202)
    const refused = await ask(b)
    expect(refused?.status).toBe(429)
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await refused?.text()).toMatch(/at most 3 a minute/)
  })
})
