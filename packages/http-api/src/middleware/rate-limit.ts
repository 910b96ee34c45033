import type { Context, MiddlewareHandler } from 'hono'
import { HttpError } from '../http-error.ts'
import { presentedKey } from './api-key.ts'

/**
 * A token bucket per caller (its API key, else its address, see clientAddress): `perMinute` requests a minute with
 * bursts up to that many; over it, 429 with Retry-After. Kept in this process (one gateway); 0 = off.
 */
export function rateLimit({
  perMinute,
  what,
  addressOf,
  now = () => Date.now(),
}: {
  perMinute: number
  what: string
  addressOf: (c: Context) => string
  now?: () => number
}): MiddlewareHandler {
  const buckets = new Map<string, { tokens: number; at: number }>()
  return async function rateLimitMiddleware(c, next) {
    if (perMinute <= 0) return next()
    const key = presentedKey((name) => c.req.header(name))
    const caller = key ? `key:${key}` : `addr:${addressOf(c)}`
    const t = now()
    const bucket = buckets.get(caller) ?? { tokens: perMinute, at: t }
    bucket.tokens = Math.min(perMinute, bucket.tokens + ((t - bucket.at) / 60_000) * perMinute)
    bucket.at = t
    buckets.set(caller, bucket)
    if (bucket.tokens < 1) {
      const seconds = Math.ceil(((1 - bucket.tokens) * 60) / perMinute)
      c.header('Retry-After', String(seconds))
      throw new HttpError(429, `too many ${what}: at most ${perMinute} a minute; try again in ${seconds} s`)
    }
    bucket.tokens -= 1
    if (buckets.size > 10_000) {
      // Forget callers whose buckets are full again.
      for (const [id, b] of buckets) if (t - b.at > 60_000) buckets.delete(id)
    }
    return next()
  }
}
