import { createHash, timingSafeEqual } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'
import { HttpError } from '../http-error.ts'

const digest = (value: string) => createHash('sha256').update(value).digest()

/** The key a request presents: `Authorization: Bearer <key>` or `X-API-Key: <key>`. */
export function presentedKey(header: (name: string) => string | undefined): string | undefined {
  const bearer = header('authorization')?.match(/^Bearer\s+(.+)$/i)?.[1]
  return (bearer ?? header('x-api-key'))?.trim() || undefined
}

/**
 * With API keys configured, every request but the open paths must present one of them (compared
 * in constant time). Without keys the gateway is loopback-only (see main.ts) and this lets all through.
 */
export function requireApiKey({
  keys,
  open,
}: {
  keys: string[]
  open: (path: string) => boolean
}): MiddlewareHandler {
  const digests = keys.map(digest)
  return async function apiKeyMiddleware(c, next) {
    if (digests.length === 0 || open(c.req.path)) return next()
    const key = presentedKey((name) => c.req.header(name))
    if (!key) {
      c.header('WWW-Authenticate', 'Bearer')
      throw new HttpError(401, 'an API key is required: send Authorization: Bearer <key> or X-API-Key: <key>')
    }
    const presented = digest(key)
    if (!digests.some((known) => timingSafeEqual(known, presented))) {
      c.header('WWW-Authenticate', 'Bearer error="invalid_token"')
      throw new HttpError(401, 'invalid API key')
    }
    return next()
  }
}
