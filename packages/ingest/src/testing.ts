import type { Pool } from '@rag/db'
import { createTestDatabase, type TestDatabase } from '@rag/db/testing'
import { createLogger, type Logger } from '@rag/log'
import { createProducer, type Producer } from '@rag/queue'
import { dropPrefix, testRedisUrl, uniquePrefix } from '@rag/queue/testing'
import { type PipelineOptions, startIngestionWorkers } from './in-process-workers.ts'
import { registerDocument } from './register-document.ts'
import { getDocument } from './repository/documents.ts'

export { type PipelineOptions, startIngestionWorkers } from './in-process-workers.ts'

/** Polls until the document is ready or failed (or the deadline passes). */
export async function waitForDocument(pool: Pool, id: string, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const document = await getDocument(pool, id)
    if (document && (document.status === 'ready' || document.status === 'failed')) return document
    if (Date.now() > deadline)
      throw new Error(`document ${id} still ${document?.status} after ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

export interface IngestionFixture {
  db: TestDatabase
  producer: Producer
  logger: Logger
  redisUrl: string
  prefix: string
  close(): Promise<void>
}

/**
 * What most integration tests stand on: a fresh database schema, a fresh queue prefix and the four
 * ingestion workers running in this process. close() takes it all down in a safe order.
 */
export async function startIngestionFixture(
  label: string,
  options: Pick<PipelineOptions, 'embedder' | 'settings' | 'concurrency'> & { redisUrl?: string } = {},
): Promise<IngestionFixture> {
  const logger = createLogger({ name: 'test', level: 'silent' })
  const redisUrl = options.redisUrl ?? testRedisUrl()
  const prefix = uniquePrefix(label)
  const { embedder } = options
  // With an embedder, the database gets its vector column (of the embedder's size).
  const db = await createTestDatabase(
    label.replace(/-/g, '_'),
    embedder ? { migrateOptions: { embedding: { model: embedder.model, dim: embedder.dim } } } : {},
  )
  const producer = await createProducer({ url: redisUrl, prefix })
  const workers = startIngestionWorkers({
    pool: db.pool,
    producer,
    logger,
    redisUrl,
    prefix,
    embedder: options.embedder,
    settings: options.settings,
    concurrency: options.concurrency,
  })
  return {
    db,
    producer,
    logger,
    redisUrl,
    prefix,
    close: async () => {
      await Promise.all(workers.map((worker) => worker.close()))
      await producer.close()
      await db.drop()
      await dropPrefix(redisUrl, prefix)
    },
  }
}

/** Uploads each text as a file of that name through the upload path and waits until all are ready. */
export async function ingestTexts(
  fixture: IngestionFixture,
  uploadDir: string,
  texts: Record<string, string>,
) {
  for (const [filename, text] of Object.entries(texts)) {
    const { document } = await registerDocument(
      { pool: fixture.db.pool, producer: fixture.producer, logger: fixture.logger },
      { uploadDir, maxBytes: 1e6 },
      { filename, data: new TextEncoder().encode(text) },
    )
    const done = await waitForDocument(fixture.db.pool, document.id)
    if (done.status !== 'ready') throw new Error(`${filename} ended ${done.status}: ${done.error ?? ''}`)
  }
}
