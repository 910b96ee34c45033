import type { Context } from 'hono'
import { peerAddress } from './client-address.ts'

/**
 * The gateway's origin as the client reached it: behind a trusted TLS proxy (TRUSTED_PROXIES) the
 * scheme and host the proxy says it was reached at (X-Forwarded-Proto / -Host), else the request's
 * own. Anyone else's X-Forwarded-* is ignored: it would let a client rewrite links others follow.
 */
export function publicOrigin(c: Context, trustedProxies: readonly string[]): string {
  const own = new URL(c.req.url)
  if (!trustedProxies.includes(peerAddress(c))) return own.origin
  const first = (header: string) => c.req.header(header)?.split(',')[0]?.trim() || undefined
  const proto = first('x-forwarded-proto')
  const host = first('x-forwarded-host') ?? own.host
  return `${proto === 'https' || proto === 'http' ? proto : own.protocol.replace(':', '')}://${host}`
}
