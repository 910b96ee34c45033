import { type ComponentHealth, checkDatabaseHealth, type Pool } from '@rag/db'
import { checkQueueHealth, type Producer, type QueueHealth } from '@rag/queue'
import { Hono } from 'hono'

export interface HealthReport {
  status: 'ok' | 'degraded'
  postgres: ComponentHealth
  pgvector: ComponentHealth
  redis: ComponentHealth
  queues: Record<string, QueueHealth>
}

async function checkRedis(producer: Producer): Promise<ComponentHealth> {
  try {
    const info = await producer.redis.info('server')
    return { ok: true, version: /redis_version:(\S+)/.exec(info)?.[1] }
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) }
  }
}

export async function buildHealthReport({
  pool,
  producer,
}: {
  pool: Pool
  producer: Producer
}): Promise<HealthReport> {
  const [database, redis, queueEntries] = await Promise.all([
    checkDatabaseHealth(pool),
    checkRedis(producer),
    Promise.all(
      [...producer.queues].map(async ([name, queue]) => [name, await checkQueueHealth(queue)] as const),
    ),
  ])
  const queues = Object.fromEntries(queueEntries)
  const healthy =
    database.postgres.ok &&
    database.pgvector.ok &&
    redis.ok &&
    Object.values(queues).every((queue) => queue.ok)
  return { status: healthy ? 'ok' : 'degraded', ...database, redis, queues }
}

/** GET /healthz: 200 when everything is up, 503 with the failing parts otherwise. Never needs a key. */
export function healthRoutes(deps: { pool: Pool; producer: Producer }) {
  return new Hono().get('/healthz', async (c) => {
    const report = await buildHealthReport(deps)
    return c.json(report, report.status === 'ok' ? 200 : 503)
  })
}
