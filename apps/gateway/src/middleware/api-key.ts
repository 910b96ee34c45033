import { createHash, timingSafeEqual } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'
import { HttpError } from '../http-error.ts'

const digest = (value: string) => createHash('sha256').update(value).digest()

export const KEY_COOKIE = 'rag_api_key'

/** Whether a key is one of the configured ones (SHA-256 digests compared in constant time). */
export function keyChecker(keys: string[]): (key: string) => boolean {
  const digests = keys.map(digest)
  return (key) => {
    const presented = digest(key)
    return digests.some((known) => timingSafeEqual(known, presented))
  }
}

/** The cookie a browser keeps its key in: HttpOnly (no script reads it), sent to this origin only. */
export const keyCookie = (key: string, maxAgeSeconds?: number) =>
  `${KEY_COOKIE}=${encodeURIComponent(key)}; Path=/; HttpOnly; SameSite=Strict${
    maxAgeSeconds === undefined ? '' : `; Max-Age=${maxAgeSeconds}`
  }`

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
  open: (path: string, method: string) => boolean
}): MiddlewareHandler {
  const isKnown = keyChecker(keys)
  return async function apiKeyMiddleware(c, next) {
    if (keys.length === 0) return next()
    const fromQuery = c.req.query('api_key')
    if (fromQuery && isKnown(fromQuery)) {
      // A browser opening a page with ?api_key=: keep the key in a cookie, drop it from the address.
      const url = new URL(c.req.url)
      url.searchParams.delete('api_key')
      c.header('Set-Cookie', keyCookie(fromQuery))
      return c.redirect(`${url.pathname}${url.search}`, 303)
    }
    if (open(c.req.path, c.req.method)) return next()
    const key = presentedKey((name) => c.req.header(name))
    if (!key) {
      c.header('WWW-Authenticate', 'Bearer')
      throw new HttpError(401, 'an API key is required: send Authorization: Bearer <key> or X-API-Key: <key>')
    }
    if (!isKnown(key)) {
      c.header('WWW-Authenticate', 'Bearer error="invalid_token"')
      throw new HttpError(401, 'invalid API key')
    }
    return next()
  }
}
