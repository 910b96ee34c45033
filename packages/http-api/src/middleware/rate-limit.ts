import type { Context, MiddlewareHandler } from 'hono'
import type { Redis } from 'ioredis'
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible'
import { keyFingerprint, presentedKey } from '../access/api-key.ts'
import { HttpError } from '../http-error.ts'

/**
 * `perMinute` requests a minute counted in Redis (rate-limiter-flexible), so the limit holds across
 * gateway replicas behind a load balancer; while Redis is away each gateway counts in its own
 * memory instead of letting everything through.
 */
export function sharedRateLimiter({
  perMinute,
  redis,
  keyPrefix,
}: {
  perMinute: number
  redis: Redis
  /** Shared by every gateway of one installation (the queue prefix and what is limited). */
  keyPrefix: string
}): RateLimiterAbstract {
  const limits = { points: perMinute, duration: 60 }
  return new RateLimiterRedis({
    ...limits,
    storeClient: redis,
    keyPrefix,
    insuranceLimiter: new RateLimiterMemory({ ...limits, keyPrefix }),
  })
}

/**
 * `perMinute` requests a minute per caller (its API key, else its address, see clientAddress),
 * counted by `limiter`; over it, 429 with Retry-After. 0 = off.
 */
export function rateLimit({
  perMinute,
  what,
  addressOf,
  limiter,
}: {
  perMinute: number
  what: string
  addressOf: (c: Context) => string
  limiter: RateLimiterAbstract
}): MiddlewareHandler {
  return async function rateLimitMiddleware(c, next) {
    if (perMinute <= 0) return next()
    const key = presentedKey(c)
    // Counted under the key's fingerprint: Redis key names never hold a key.
    // A key signed in through a browser counts as the key does.
    const caller = key ? (c.get('principal')?.owner ?? keyFingerprint(key)) : `addr:${addressOf(c)}`
    try {
      await limiter.consume(caller)
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal
      const seconds = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000))
      c.header('Retry-After', String(seconds))
      throw new HttpError(429, `too many ${what}: at most ${perMinute} a minute; try again in ${seconds} s`)
    }
    return next()
  }
}
