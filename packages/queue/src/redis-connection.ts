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
 * every disconnect, and hears a failover as it is announced (failoverDetector).
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
      failoverDetector: true,
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

/** Resolves when Redis answers PING; rejects with a RedisUnavailableError after timeoutMs. */
export async function waitForRedis(url: string, timeoutMs = 3000): Promise<void> {
  const client = new Redis({
    ...redisOptionsFromUrl(url),
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  })
  client.on('error', () => undefined)
  try {
    await client.connect()
    await client.ping()
  } catch (error) {
    throw new RedisUnavailableError(url, error)
  } finally {
    client.disconnect()
  }
}
