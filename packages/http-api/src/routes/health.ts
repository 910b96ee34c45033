import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi'
import { type ComponentHealth, checkDatabaseHealth, type Pool } from '@rag/db'
import { checkQueueHealth, type Producer, type QueueHealth, readComponentStatuses } from '@rag/queue'
import { keyAttemptErrors } from '../openapi/common-schemas.ts'

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

const component = z.looseObject({
  ok: z.boolean(),
  version: z.string().optional(),
  error: z.string().optional(),
})
const healthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    postgres: component,
    pgvector: component,
    redis: component,
    queues: z.record(z.string(), z.looseObject({ ok: z.boolean() })),
    models: z.record(z.string(), z.record(z.string(), z.unknown()).nullable()),
    degraded: z
      .array(z.string())
      .openapi({ description: 'Optional capabilities missing (e.g. the reranker)' }),
  })
  .openapi('Health')

const healthRoute = createRoute({
  method: 'get',
  path: '/healthz',
  operationId: 'getHealth',
  security: [],
  tags: ['health'],
  summary: 'Postgres, pgvector, Redis, queues and models; never needs a key',
  responses: {
    ...keyAttemptErrors,
    200: {
      description: 'Everything needed is up',
      content: { 'application/json': { schema: healthSchema } },
    },
    503: {
      description: 'Something needed is down',
      content: { 'application/json': { schema: healthSchema } },
    },
  },
})

/** GET /healthz: 200 when everything is up, 503 with the failing parts otherwise. Never needs a key. */
export function healthRoutes(deps: { pool: Pool; producer: Producer; queuePrefix: string }) {
  return new OpenAPIHono().openapi(healthRoute, async (c) => {
    const report = await buildHealthReport(deps)
    return report.status === 'ok' ? c.json(report, 200) : c.json(report, 503)
  })
}
