import type { Pool } from '@rag/db'
import { createTestDatabase, type TestDatabase } from '@rag/db/testing'
import type { Embedder } from '@rag/embeddings'
import { createLogger, type Logger } from '@rag/log'
import {
  chunkJob,
  createProducer,
  embedJob,
  type Producer,
  parseJob,
  startWorker,
  storeJob,
} from '@rag/queue'
import { dropPrefix, testRedisUrl, uniquePrefix } from '@rag/queue/testing'
import type { Worker } from 'bullmq'
import { getDocument } from './documents.ts'
import { createChunkHandler } from './stages/chunk-stage.ts'
import { createEmbedHandler } from './stages/embed-stage.ts'
import { createParseHandler } from './stages/parse-stage.ts'
import { createStoreHandler } from './stages/store-stage.ts'

export interface PipelineOptions {
  pool: Pool
  producer: Producer
  logger: Logger
  redisUrl: string
  prefix: string
  embedder?: Embedder | null
  chunk?: { size: number; overlap: number; parentMaxChars: number }
  sectionsPerPart?: number
}

/** The four ingestion workers in this process (tests); production runs each in its own. */
export function startIngestionWorkers(options: PipelineOptions): Worker[] {
  const deps = { pool: options.pool, producer: options.producer, logger: options.logger }
  const common = { redisUrl: options.redisUrl, prefix: options.prefix, logger: options.logger }
  const embedder = options.embedder ?? null
  return [
    startWorker({
      ...common,
      definition: parseJob,
      handler: createParseHandler(deps, {
        sectionsPerPart: options.sectionsPerPart ?? 50,
        maxSectionChars: 2000,
      }),
    }),
    startWorker({
      ...common,
      definition: chunkJob,
      handler: createChunkHandler(deps, options.chunk ?? { size: 500, overlap: 100, parentMaxChars: 2000 }),
    }),
    startWorker({ ...common, definition: embedJob, handler: createEmbedHandler(deps, async () => embedder) }),
    startWorker({
      ...common,
      definition: storeJob,
      handler: createStoreHandler(deps, { embeddingModel: embedder?.model ?? null }),
    }),
  ]
}

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
  options: { embedder?: Embedder | null } = {},
): Promise<IngestionFixture> {
  const logger = createLogger({ name: 'test', level: 'silent' })
  const redisUrl = testRedisUrl()
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
