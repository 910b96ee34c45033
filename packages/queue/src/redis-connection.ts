import { parseSentinelUrl } from '@rag/config'
import type { RedisOptions } from 'bullmq'
import { Redis } from 'ioredis'

/**
 * workers: wait for Redis forever (a worker outliving a Redis restart just resumes);
 * producers: fail fast (an HTTP request must get an error, not hang until Redis returns).
 */
export type ConnectionRole = 'worker' | 'producer'

/**
 * Connection options for a redis:// or rediss:// URL, or for a primary found through Sentinel
 * (redis-sentinel://…, see @rag/config): ioredis asks the sentinels for the primary, again after
 * every disconnect. Not ioredis's failoverDetector: its +switch-master handler disconnects the
 * client while a reconnect may be resolving the primary, and that reconnect then ends the client
 * for good ("Connection is closed." on every later command, no retry: 106 of 200 documents stuck
 * in our failover test under load). A dead primary closes its connections, which is what makes
 * a client ask again; a primary demoted by a failover closes its clients' connections too.
 */
export function redisOptionsFromUrl(url: string): RedisOptions {
  const sentinel = parseSentinelUrl(url)
  if (sentinel)
    return {
      sentinels: sentinel.sentinels,
      name: sentinel.name,
      role: 'master',
      db: sentinel.db,
      username: sentinel.username,
      password: sentinel.password,
      // Sentinels answer fast or not at all: try the next one soon, forever (workers wait for Redis).
      sentinelRetryStrategy: (attempt: number) => Math.min(attempt * 200, 2000),
    }
  const parsed = new URL(url)
  const db = parsed.pathname.replace('/', '')
  return {
    host: parsed.hostname || '127.0.0.1',
    port: parsed.port ? Number(parsed.port) : 6379,
    username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db: db ? Number(db) : 0,
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
  }
}

export function redisConnectionOptions(url: string, role: ConnectionRole): RedisOptions {
  const base = redisOptionsFromUrl(url)
  if (role === 'worker') {
    return {
      ...base,
      maxRetriesPerRequest: null,
      retryStrategy: (attempt) => Math.min(attempt * 500, 5000),
    }
  }
  return {
    ...base,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2000,
    // Keep trying in the background so the producer recovers when Redis comes back.
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  }
}

export class RedisUnavailableError extends Error {
  constructor(url: string, cause: unknown) {
    const redacted = url.replace(/\/\/[^@/]*@/, '//***@')
    super(
      `Redis at ${redacted} is not reachable (${cause instanceof Error ? cause.message : String(cause)}). ` +
        'Start one (`docker compose up -d redis`, or install the redis-server package) or set REDIS_URL.',
      { cause },
    )
    this.name = 'RedisUnavailableError'
  }
}

/** A plain client (health pings, cache); fails fast like a producer. */
export function createRedisClient(url: string, role: ConnectionRole = 'producer'): Redis {
  const client = new Redis({ ...redisConnectionOptions(url, role), lazyConnect: true })
  // Without a listener ioredis prints every reconnect failure; callers observe errors on commands.
  client.on('error', () => undefined)
  return client
}

/**
 * Connects a lazyConnect client and resolves once it is ready, past any reconnects on the way (a
 * sentinel's stale answer costs one: ioredis checks the server's role and asks again), where
 * `client.connect()` would reject on the first. Rejects when the client gives up, or after timeoutMs.
 */
export async function connectRedis(client: Redis, timeoutMs = 10_000): Promise<void> {
  let lastError: unknown
  const onError = (error: unknown) => {
    lastError = error
  }
  client.on('error', onError)
  let timer: NodeJS.Timeout | undefined
  try {
    const ready = new Promise<void>((resolve, reject) => {
      client.once('ready', resolve)
      client.once('end', () => reject(lastError ?? new Error('Connection is closed.')))
      timer = setTimeout(() => reject(lastError ?? new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
    })
    client.connect().catch(() => undefined)
    await ready
  } finally {
    clearTimeout(timer)
    client.off('error', onError)
  }
}

/** Resolves when Redis answers PING; rejects with a RedisUnavailableError after timeoutMs. */
export async function waitForRedis(url: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  const client = new Redis({
    ...redisOptionsFromUrl(url),
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    // Reconnects are let to happen (a sentinel with a stale view costs one), within the timeout.
    retryStrategy: (attempt) => (Date.now() + attempt * 50 < deadline ? attempt * 50 : null),
  })
  client.on('error', () => undefined)
  try {
    await connectRedis(client, timeoutMs)
    await client.ping()
  } catch (error) {
    throw new RedisUnavailableError(url, error)
  } finally {
    client.disconnect()
  }
}
