import type { MiddlewareHandler } from 'hono'
import { HttpError } from '../http-error.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Refuses state-changing requests a browser sends on behalf of another site (CSRF): with the key
 * cookie, or to a gateway on loopback without keys, a page elsewhere could upload, re-index or
 * delete. SameSite cookies do not stop another port of the same host (same site, other origin),
 * so the browser's own headers decide: `Sec-Fetch-Site` must be same-origin (or none: typed or
 * bookmarked), else `Origin` must be this origin or a configured CORS origin. Requests without
 * either header come from programs, not browsers, and go on to the key check.
 */
export function rejectCrossOrigin({
  allowedOrigins,
}: {
  allowedOrigins: readonly string[]
}): MiddlewareHandler {
  return async function crossOriginMiddleware(c, next) {
    if (SAFE_METHODS.has(c.req.method)) return next()
    const origin = c.req.header('origin')
    if (origin && allowedOrigins.includes(origin)) return next()
    const fetchSite = c.req.header('sec-fetch-site')
    if (fetchSite === 'same-origin' || fetchSite === 'none') return next()
    if (fetchSite === undefined) {
      // No browser metadata: a program (no Origin either), or an older browser (Origin decides).
      if (origin === undefined) return next()
      const host = c.req.header('host') ?? new URL(c.req.url).host
      if (origin !== 'null' && URL.canParse(origin) && new URL(origin).host === host) {
        return next()
      }
    }
    throw new HttpError(
      403,
      `cross-origin ${c.req.method} refused (from ${origin ?? `a ${fetchSite} page`}): only this gateway's own pages, or CORS_ORIGINS, may change data from a browser`,
    )
  }
}
