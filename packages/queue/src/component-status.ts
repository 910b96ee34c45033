import type { Redis } from 'ioredis'

/**
 * Workers publish the state of what they load (models) under a key that expires, so the gateway
 * can report it in /healthz and a dead worker's state disappears instead of lying.
 */
export async function publishComponentStatus(
  redis: Redis,
  prefix: string,
  component: string,
  status: Record<string, unknown>,
  ttlSeconds = 60,
): Promise<void> {
  await redis.set(
    `${prefix}:status:${component}`,
    JSON.stringify({ ...status, at: new Date().toISOString() }),
    'EX',
    ttlSeconds,
  )
}

export async function readComponentStatuses(
  redis: Redis,
  prefix: string,
  components: string[],
): Promise<Record<string, Record<string, unknown> | null>> {
  const values = components.length > 0 ? await redis.mget(components.map((c) => `${prefix}:status:${c}`)) : []
  return Object.fromEntries(
    components.map((c, i) => [
      c,
      values[i] ? (JSON.parse(values[i] ?? 'null') as Record<string, unknown>) : null,
    ]),
  )
}
