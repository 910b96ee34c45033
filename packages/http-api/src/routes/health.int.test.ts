import { createTestDatabase, type TestDatabase } from '@rag/db/testing'
import { createLogger } from '@rag/log'
import { ALL_JOBS, createProducer, type Producer, sourceSyncJob, startWorker } from '@rag/queue'
import { dropPrefix, testRedisUrl, uniquePrefix } from '@rag/queue/testing'
import type { Worker } from 'bullmq'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type TestGateway } from '../testing.ts'
import type { HealthReport } from './health.ts'

const logger = createLogger({ name: 'test', level: 'silent' })
const redisUrl = testRedisUrl()
const prefix = uniquePrefix('gateway-health')
let db: TestDatabase
let producer: Producer
let testGateway: TestGateway
const workers: Worker[] = []

beforeAll(async () => {
  db = await createTestDatabase('gateway_health')
  producer = await createProducer({ url: redisUrl, prefix })
  // Health needs no uploads; the other routes are present but unused here.
  testGateway = await createTestGateway(
    { pool: db.pool, producer, logger, redisUrl, prefix },
    { uploadDir: '/nonexistent', maxBytes: 1, maxFiles: 1 },
  )
})

afterAll(async () => {
  await testGateway?.close()
  await Promise.all(workers.map((worker) => worker.close()))
  await producer?.close()
  await db?.drop()
  await dropPrefix(redisUrl, prefix)
})

const gateway = () => testGateway.app

describe('GET /healthz', () => {
  it('is 503 and names the queues nobody works on', async () => {
    const app = gateway()
    const response = await app.request('/healthz')
    expect(response.status).toBe(503)
    const body = (await response.json()) as HealthReport
    expect(body.status).toBe('degraded')
    expect(body.postgres.ok).toBe(true)
    expect(body.pgvector).toMatchObject({ ok: true })
    expect(body.redis).toMatchObject({ ok: true, version: expect.stringMatching(/^\d+\./) })
    expect(body.queues['ingest.parse']).toMatchObject({
      ok: false,
      workers: 0,
      error: 'no worker is attached to this queue',
    })
  })

  it('is 200 without the watcher, saying that source syncs wait; and with a worker on every queue', async () => {
    // Every queue's worker but the watcher's (source syncs): uploads and questions go on.
    for (const definition of ALL_JOBS.filter((job) => job.name !== sourceSyncJob.name)) {
      const handler = async () => undefined
      workers.push(startWorker<typeof definition.payload>({ definition, handler, redisUrl, prefix, logger }))
    }
    await Promise.all(workers.map((worker) => worker.waitUntilReady()))
    const app = gateway()
    await expect.poll(async () => (await app.request('/healthz')).status, { timeout: 60_000 }).toBe(200)
    const withoutWatcher = (await (await app.request('/healthz')).json()) as HealthReport
    expect(withoutWatcher.status).toBe('ok')
    expect(withoutWatcher.degraded).toContain('source syncs (no watcher is running: they wait)')

    for (const definition of [sourceSyncJob]) {
      const handler = async () => undefined
      workers.push(startWorker<typeof definition.payload>({ definition, handler, redisUrl, prefix, logger }))
    }
    await Promise.all(workers.map((worker) => worker.waitUntilReady()))
    await expect
      .poll(async () => ((await (await app.request('/healthz')).json()) as HealthReport).degraded, {
        timeout: 60_000,
      })
      .toEqual([])
    const body = (await (await app.request('/healthz')).json()) as HealthReport
    expect(Object.keys(body.queues).sort()).toEqual(ALL_JOBS.map((job) => job.name).sort())
    expect(Object.values(body.queues).every((queue) => (queue as { workers: number }).workers >= 1)).toBe(
      true,
    )
  })
})

describe('every response', () => {
  it('answers an unknown route with a JSON 404 and echoes the request id', async () => {
    const app = gateway()
    const response = await app.request('/nope', { headers: { 'x-request-id': 'abc-123' } })
    expect(response.status).toBe(404)
    expect(response.headers.get('x-request-id')).toBe('abc-123')
    expect(await response.json()).toEqual({ error: { message: 'no route for GET /nope' } })
  })
})
