import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isDocumentFinished } from '@rag/api-contract/enums'
import type { Pool } from '@rag/db'
import { createTestDatabase, type TestDatabase } from '@rag/db/testing'
import { createLogger, type Logger } from '@rag/log'
import { createProducer, type Producer } from '@rag/queue'
import { dropPrefix, testRedisUrl, uniquePrefix } from '@rag/queue/testing'
import { type PipelineOptions, startIngestionWorkers } from './in-process-workers.ts'
import { registerDocument } from './register-document.ts'
import { type DocumentRecord, getDocument } from './repository/documents.ts'

export { type PipelineOptions, startIngestionWorkers } from './in-process-workers.ts'
// The part steps' bookkeeping, for the bench that weighs it (pnpm bench part-status).
export {
  insertDocument,
  partMoved,
  refreshDocumentStatus,
  setPartsTotal,
  setStage,
} from './repository/documents.ts'
export { advancePart, saveParsedPart } from './repository/parts.ts'

/** Polls until the document is ready or failed (or the deadline passes). */
export async function waitForDocument(pool: Pool, id: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const document = await getDocument(pool, id)
    if (document && isDocumentFinished(document.status)) return document
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
  options: Pick<PipelineOptions, 'embedder' | 'settings' | 'concurrency'> & {
    redisUrl?: string
    /** A Postgres of the test's own (startPrivatePostgres) instead of the shared one. */
    databaseUrl?: string
  } = {},
): Promise<IngestionFixture> {
  const logger = createLogger({ name: 'test', level: 'silent' })
  const redisUrl = options.redisUrl ?? testRedisUrl()
  const prefix = uniquePrefix(label)
  const { embedder } = options
  // With an embedder, the database gets its vector column (of the embedder's size).
  const db = await createTestDatabase(label.replace(/-/g, '_'), {
    url: options.databaseUrl,
    ...(embedder ? { migrateOptions: { embedding: { model: embedder.model, dim: embedder.dim } } } : {}),
  })
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

/** The sample documents `pnpm start` seeds (data/sample): a PDF, a CSV, a DOCX, Markdown and HTML. */
export const SAMPLE_DIR = fileURLToPath(new URL('../../../data/sample/', import.meta.url))

/**
 * Uploads each file through the upload path and waits until all are ready; throws naming any
 * that ended otherwise. Returns the documents in the order given.
 */
export async function ingestFiles(
  fixture: Pick<IngestionFixture, 'db' | 'producer' | 'logger'>,
  uploadDir: string,
  files: { filename: string; data: Uint8Array; collection?: string }[],
): Promise<DocumentRecord[]> {
  const deps = { pool: fixture.db.pool, producer: fixture.producer, logger: fixture.logger }
  const registered = []
  for (const file of files)
    registered.push((await registerDocument(deps, { uploadDir, maxBytes: 1e7 }, file)).document)
  const done = await Promise.all(registered.map((document) => waitForDocument(fixture.db.pool, document.id)))
  const notReady = done.filter((document) => document.status !== 'ready')
  if (notReady.length > 0)
    throw new Error(notReady.map((d) => `${d.filename} ended ${d.status}: ${d.error ?? ''}`).join('; '))
  return done
}

/** The sample documents (all, or those named), ingested into a collection (the default one) and ready. */
export async function ingestSamples(
  fixture: Pick<IngestionFixture, 'db' | 'producer' | 'logger'>,
  uploadDir: string,
  names?: string[],
  { collection }: { collection?: string } = {},
): Promise<DocumentRecord[]> {
  const files = names ?? (await readdir(SAMPLE_DIR)).sort()
  return ingestFiles(
    fixture,
    uploadDir,
    await Promise.all(
      files.map(async (filename) => ({
        filename,
        data: await readFile(join(SAMPLE_DIR, filename)),
        ...(collection ? { collection } : {}),
      })),
    ),
  )
}

/** Uploads each text as a file of that name through the upload path and waits until all are ready. */
export async function ingestTexts(
  fixture: Pick<IngestionFixture, 'db' | 'producer' | 'logger'>,
  uploadDir: string,
  texts: Record<string, string>,
) {
  return ingestFiles(
    fixture,
    uploadDir,
    Object.entries(texts).map(([filename, text]) => ({ filename, data: new TextEncoder().encode(text) })),
  )
}
