import { createHash, timingSafeEqual } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'
import { HttpError } from '../http-error.ts'

const digest = (value: string) => createHash('sha256').update(value).digest()

export const KEY_COOKIE = 'rag_api_key'

/**
 * The key a request presents: `Authorization: Bearer <key>`, `X-API-Key: <key>`, or the cookie a
 * browser got from `?api_key=` (a page cannot send headers when it is opened by its address).
 */
export function presentedKey(header: (name: string) => string | undefined): string | undefined {
  const bearer = header('authorization')?.match(/^Bearer\s+(.+)$/i)?.[1]
  const cookie = header('cookie')
    ?.split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${KEY_COOKIE}=`))
    ?.slice(KEY_COOKIE.length + 1)
  return (
    (bearer ?? header('x-api-key') ?? (cookie ? decodeURIComponent(cookie) : undefined))?.trim() || undefined
  )
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
    const fromQuery = c.req.query('api_key')
    if (fromQuery && digests.some((known) => timingSafeEqual(known, digest(fromQuery)))) {
      // A browser opening the dashboard with ?api_key=: keep the key in a cookie, drop it from the address.
      const url = new URL(c.req.url)
      url.searchParams.delete('api_key')
      c.header(
        'Set-Cookie',
        `${KEY_COOKIE}=${encodeURIComponent(fromQuery)}; Path=/; HttpOnly; SameSite=Strict`,
      )
      return c.redirect(`${url.pathname}${url.search}`, 303)
    }
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
