import { type ComponentHealth, checkDatabaseHealth, type Pool } from '@rag/db'
import { checkQueueHealth, type Producer, type QueueHealth, readComponentStatuses } from '@rag/queue'
import { Hono } from 'hono'

export interface HealthReport {
  status: 'ok' | 'degraded'
  postgres: ComponentHealth
  pgvector: ComponentHealth
  redis: ComponentHealth
  queues: Record<string, QueueHealth>
  /** What the model workers last reported (null: no report yet, or the worker is gone). */
  models: Record<string, Record<string, unknown> | null>
  /** Optional capabilities currently missing (answers still work without them). */
  degraded: string[]
}

export const MODEL_COMPONENTS = ['embedding', 'reranker', 'llm']

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
  queuePrefix,
}: {
  pool: Pool
  producer: Producer
  queuePrefix: string
}): Promise<HealthReport> {
  const [database, redis, queueEntries, models] = await Promise.all([
    checkDatabaseHealth(pool),
    checkRedis(producer),
    Promise.all(
      [...producer.queues].map(async ([name, queue]) => [name, await checkQueueHealth(queue)] as const),
    ),
    readComponentStatuses(producer.redis, queuePrefix, MODEL_COMPONENTS).catch(() => ({})),
  ])
  const queues = Object.fromEntries(queueEntries)
  // Models are optional: the platform answers without them (keyword search, extractive answers),
  // so their absence is listed, not turned into an unhealthy status.
  const degraded = Object.entries(models)
    .filter(([, status]) => status?.state === 'unavailable')
    .map(([name]) => name)
  const healthy =
    database.postgres.ok &&
    database.pgvector.ok &&
    redis.ok &&
    Object.values(queues).every((queue) => queue.ok)
  return { status: healthy ? 'ok' : 'degraded', ...database, redis, queues, models, degraded }
}

/** GET /healthz: 200 when everything is up, 503 with the failing parts otherwise. Never needs a key. */
export function healthRoutes(deps: { pool: Pool; producer: Producer; queuePrefix: string }) {
  return new Hono().get('/healthz', async (c) => {
    const report = await buildHealthReport(deps)
    return c.json(report, report.status === 'ok' ? 200 : 503)
  })
}
