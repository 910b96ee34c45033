import type { Context } from 'hono'

/** The socket's peer as @hono/node-server exposes it (absent under app.request in tests). */
export function peerAddress(c: Context): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming
  return incoming?.socket?.remoteAddress?.replace(/^::ffff:/, '') ?? 'local'
}

/**
 * The address a request comes from, for limits kept per client. X-Forwarded-For is believed only
 * when the peer is a configured proxy (anyone else could write any address there and get a fresh
 * limit per request); then the client is the last address in it that is not a proxy itself.
 */
export function clientAddress(c: Context, trustedProxies: readonly string[]): string {
  const peer = peerAddress(c)
  if (!trustedProxies.includes(peer)) return peer
  const forwarded = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  for (let i = forwarded.length - 1; i >= 0; i--) {
    const hop = forwarded[i] as string
    if (!trustedProxies.includes(hop)) return hop
  }
  return peer
}
