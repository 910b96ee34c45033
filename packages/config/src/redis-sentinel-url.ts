/**
 * A Redis reached through Sentinel, written as one address so every process takes it where it
 * takes REDIS_URL: `redis-sentinel://[user:password@]host:port,host:port/<primary name>[/<db>]`.
 * REDIS_SENTINELS and REDIS_SENTINEL_NAME make it; the password is the primary's (and replicas').
 */
export interface SentinelAddress {
  sentinels: { host: string; port: number }[]
  name: string
  db: number
  username?: string
  password?: string
}

export const SENTINEL_PROTOCOL = 'redis-sentinel:'

const HOST_PORT = /^(\[[0-9a-f:.]+\]|[^\s:,/@[\]]+)(?::(\d{1,5}))?$/i

/** The sentinels, primary name and db of such an address; null when it is not one (or malformed). */
export function parseSentinelUrl(url: string): SentinelAddress | null {
  const match = url.match(/^redis-sentinel:\/\/(?:([^:@/]*)(?::([^@/]*))?@)?([^/]+)\/([^/]+)(?:\/(\d+))?\/?$/)
  if (!match?.[3] || !match[4]) return null
  const sentinels = []
  for (const entry of match[3].split(',')) {
    const hostPort = entry.trim().match(HOST_PORT)
    if (!hostPort?.[1]) return null
    sentinels.push({ host: hostPort[1].replace(/^\[|\]$/g, ''), port: Number(hostPort[2] ?? 26379) })
  }
  return {
    sentinels,
    name: decodeURIComponent(match[4]),
    db: match[5] ? Number(match[5]) : 0,
    ...(match[1] ? { username: decodeURIComponent(match[1]) } : {}),
    ...(match[2] ? { password: decodeURIComponent(match[2]) } : {}),
  }
}

export function formatSentinelUrl(sentinels: string[], name: string, password?: string): string {
  const auth = password ? `:${encodeURIComponent(password)}@` : ''
  return `redis-sentinel://${auth}${sentinels.join(',')}/${encodeURIComponent(name)}`
}
