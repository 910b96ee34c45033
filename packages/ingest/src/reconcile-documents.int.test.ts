import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestDatabase, type TestDatabase } from '@rag/db/testing'
import { createLogger } from '@rag/log'
import { createProducer, type Producer, parseJob, startWorker, UnrecoverableError } from '@rag/queue'
import { dropPrefix, testRedisUrl, uniquePrefix } from '@rag/queue/testing'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { reconcileDocuments } from './reconcile-documents.ts'
import { registerDocument } from './register-document.ts'
import { getDocument } from './repository/documents.ts'

const logger = createLogger({ name: 'test', level: 'silent' })
const redisUrl = testRedisUrl()
const prefix = uniquePrefix('reconcile')
let db: TestDatabase
let producer: Producer
let uploadDir: string

beforeAll(async () => {
  db = await createTestDatabase('reconcile')
  producer = await createProducer({ url: redisUrl, prefix })
  uploadDir = await mkdtemp(join(tmpdir(), 'rag-reconcile-'))
})
afterAll(async () => {
  await producer?.close()
  await db?.drop()
  await dropPrefix(redisUrl, prefix)
  await rm(uploadDir, { recursive: true, force: true })
})

it('a document whose job failed for good (failure not recorded) is failed with the reason, not started over', async () => {
  const deps = { pool: db.pool, producer, logger }
  const { document } = await registerDocument(
    deps,
    { uploadDir, maxBytes: 1000 },
    {
      filename: 'notes.txt',
      data: Buffer.from('some text'),
    },
  )
  // A parse worker whose failure never reaches Postgres (no onFinalFailure, as when Postgres was
  // down at that moment, or BullMQ failed the job as stalled before any handler ran).
  const failedOnce = new Promise<void>((resolve) => {
    const worker = startWorker({
      definition: parseJob,
      redisUrl,
      prefix,
      logger,
      handler: async () => {
        throw new UnrecoverableError('job stalled more than allowable limit')
      },
    })
    worker.on('failed', () => worker.close().then(resolve))
  })
  await failedOnce
  await db.pool.query("UPDATE documents SET updated_at = now() - interval '1 hour' WHERE id = $1", [
    document.id,
  ])
  expect((await getDocument(db.pool, document.id))?.status).toBe('queued')

  await reconcileDocuments(deps, { staleAfterMs: 60_000 })

  const after = await getDocument(db.pool, document.id)
  expect(after?.status).toBe('failed')
  expect(after?.error).toBe(
    'parse: the parse worker stopped (crashed, killed or out of memory) each time it worked on this document',
  )
  const queue = producer.queues.get(parseJob.name)
  expect(await queue?.getWaitingCount()).toBe(0)
})
