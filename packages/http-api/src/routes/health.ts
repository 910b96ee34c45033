import { tmpdir } from 'node:os'
import { OpenAPIHono, z } from '@hono/zod-openapi'
import { type ComponentHealth, checkDatabaseHealth, type Pool } from '@rag/db'
import { freeBytes } from '@rag/ingest'
import {
  checkQueueHealth,
  type Producer,
  type QueueHealth,
  readComponentStatuses,
  sourceSyncJob,
} from '@rag/queue'
import { defineRoute } from '../access/route-policy.ts'
import { keyAttemptErrors } from '../openapi/common-schemas.ts'

export interface HealthReport {
  status: 'ok' | 'degraded'
  postgres: ComponentHealth
  pgvector: ComponentHealth
  redis: ComponentHealth
  queues: Record<string, QueueHealth>
  /** What the model workers last reported (null: no report yet, or the worker is gone). */
  models: Record<string, Record<string, unknown> | null>
  /** Free space where uploads and parses write (null: not known). */
  disk: Record<string, { path: string; freeBytes: number | null; low: boolean }>
  /** Optional capabilities currently missing (answers still work without them). */
  degraded: string[]
}

/**
 * Below this much free space a folder is reported low: a largest upload needs room twice (its
 * spooled copy and its stored one), and parses need temp space besides.
 */
export const lowSpaceBytes = (maxUploadBytes: number) => Math.max(2 * maxUploadBytes, 256 * 1024 * 1024)

async function checkDisk(folders: Record<string, string>, minimum: number): Promise<HealthReport['disk']> {
  const entries = await Promise.all(
    Object.entries(folders).map(async ([name, path]) => {
      const free = await freeBytes(path)
      return [name, { path, freeBytes: free, low: free !== null && free < minimum }] as const
    }),
  )
  return Object.fromEntries(entries)
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
  uploads,
}: {
  pool: Pool
  producer: Producer
  queuePrefix: string
  uploads?: { uploadDir: string; maxBytes: number }
}): Promise<HealthReport> {
  const folders: Record<string, string> = { temp: tmpdir() }
  if (uploads) folders.uploads = uploads.uploadDir
  const [database, redis, queueEntries, models, disk] = await Promise.all([
    checkDatabaseHealth(pool),
    checkRedis(producer),
    Promise.all(
      [...producer.queues].map(async ([name, queue]) => [name, await checkQueueHealth(queue)] as const),
    ),
    readComponentStatuses(producer.redis, queuePrefix, MODEL_COMPONENTS).catch(() => ({})),
    checkDisk(folders, lowSpaceBytes(uploads?.maxBytes ?? 0)),
  ])
  const queues = Object.fromEntries(queueEntries)
  // Models are optional: the platform answers without them (keyword search, extractive answers),
  // so their absence is listed, not turned into an unhealthy status.
  const degraded = Object.entries(models)
    .filter(([, status]) => status?.state === 'unavailable')
    .map(([name]) => name)
  // Low space is said, not turned into an unhealthy status: search and answers go on meanwhile.
  for (const [name, folder] of Object.entries(disk))
    if (folder.low)
      degraded.push(
        `disk space (${name}: ${folder.path}, ${Math.round((folder.freeBytes ?? 0) / 1048576)} MB free)`,
      )
  // Sources' syncs run in the watcher: without it they wait (said), while uploads and questions go on.
  const sourceSyncs = queues[sourceSyncJob.name]
  if (sourceSyncs && !sourceSyncs.ok) degraded.push('source syncs (no watcher is running: they wait)')
  const healthy =
    database.postgres.ok &&
    database.pgvector.ok &&
    redis.ok &&
    Object.entries(queues).every(([name, queue]) => queue.ok || name === sourceSyncJob.name)
  return { status: healthy ? 'ok' : 'degraded', ...database, redis, queues, models, disk, degraded }
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
    disk: z
      .record(z.string(), z.object({ path: z.string(), freeBytes: z.number().nullable(), low: z.boolean() }))
      .openapi({
        description: 'Free space where uploads and parses write; low: below what a largest upload needs',
      }),
    degraded: z
      .array(z.string())
      .openapi({ description: 'Optional capabilities missing (e.g. the reranker), and low disk space' }),
  })
  .openapi('Health')

const healthRoute = defineRoute(
  {
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
  },
  { role: 'open' },
)

/** GET /healthz: 200 when everything is up, 503 with the failing parts otherwise. Never needs a key. */
export function healthRoutes(deps: {
  pool: Pool
  producer: Producer
  queuePrefix: string
  uploads?: { uploadDir: string; maxBytes: number }
}) {
  return new OpenAPIHono().openapi(healthRoute, async (c) => {
    const report = await buildHealthReport(deps)
    return report.status === 'ok' ? c.json(report, 200) : c.json(report, 503)
  })
}
