import { RateLimiterMemory } from 'rate-limiter-flexible'
import { describe, expect, it } from 'vitest'
import { keyResolver, requireApiKey } from '../access/api-key.ts'
import { KeyAttempts } from '../access/key-attempts.ts'
import { bareApp } from '../testing/bare-app.ts'
import { rateLimit } from './rate-limit.ts'

// As the gateway wires it: the key check reads the presented key first, the limit counts by it.
const limited = (perMinute: number) =>
  bareApp(
    requireApiKey({
      keys: [],
      resolve: keyResolver([], async () => null),
      open: () => true,
      attempts: new KeyAttempts(10),
      addressOf: () => 'local',
    }),
    rateLimit({
      perMinute,
      what: 'questions',
      addressOf: (c) => c.req.header('x-test-address') ?? 'local',
      limiter: new RateLimiterMemory({ points: perMinute, duration: 60 }),
    }),
  )

describe('rateLimit', () => {
  it('answers 429 with Retry-After past the limit, per key, else per address', async () => {
    const app = limited(2)
    const as = (headers: Record<string, string>) => app.request('/ask', { method: 'POST', headers })
    expect((await as({ authorization: 'Bearer a' })).status).toBe(200)
    expect((await as({ authorization: 'Bearer a' })).status).toBe(200)
    const refused = await as({ authorization: 'Bearer a' })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /too many questions: at most 2 a minute/,
    )
    expect((await as({ authorization: 'Bearer b' })).status).toBe(200)
    expect((await as({ 'x-test-address': '10.0.0.1' })).status).toBe(200)
  })

  it('is off at 0', async () => {
    const app = limited(0)
    for (let i = 0; i < 5; i++) expect((await app.request('/ask', { method: 'POST' })).status).toBe(200)
  })
})
