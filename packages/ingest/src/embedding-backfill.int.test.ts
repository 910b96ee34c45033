import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestDatabase, readTestConfig, type TestDatabase } from '@rag/db/testing'
import { type Embedder, loadTransformersEmbedder } from '@rag/embeddings'
import { findSharedTokenizer, loadTinyEmbedder } from '@rag/embeddings/testing'
import { createLogger } from '@rag/log'
import { createProducer, type Producer } from '@rag/queue'
import { dropPrefix, testRedisUrl, uniquePrefix } from '@rag/queue/testing'
import type { Worker } from 'bullmq'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backfillEmbeddings } from './backfill-embeddings.ts'
import { registerDocument } from './register-document.ts'
import { startIngestionWorkers, waitForDocument } from './testing.ts'

const logger = createLogger({ name: 'test', level: 'silent' })
const redisUrl = testRedisUrl()
const { dir: tokenizerDir, found: hasTokenizer } = await findSharedTokenizer(readTestConfig().sharedDir)
if (!hasTokenizer)
  console.warn(`skipping embedding pipeline tests: no tokenizer at ${tokenizerDir} (set SHARED_DIR)`)

let db: TestDatabase
let dir: string
let embedder: Embedder
const running: { workers: Worker[]; producer: Producer; prefix: string }[] = []

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rag-backfill-'))
  if (!hasTokenizer) return
  embedder = await loadTinyEmbedder({ modelsDir: join(dir, 'models'), tokenizerDir, dim: 8, logger })
  db = await createTestDatabase('backfill', { migrateOptions: { embedding: { model: 'test/tiny', dim: 8 } } })
})

afterAll(async () => {
  for (const { workers, producer, prefix } of running) {
    await Promise.all(workers.map((worker) => worker.close()))
    await producer?.close()
    await dropPrefix(redisUrl, prefix)
  }
  await db?.drop()
  await rm(dir, { recursive: true, force: true })
})

async function pipeline(withEmbedder: Embedder | null) {
  const prefix = uniquePrefix('backfill')
  const producer = await createProducer({ url: redisUrl, prefix })
  const workers = startIngestionWorkers({
    pool: db.pool,
    producer,
    logger,
    redisUrl,
    prefix,
    embedder: withEmbedder,
  })
  running.push({ workers, producer, prefix })
  return (filename: string, text: string) =>
    registerDocument(
      { pool: db.pool, producer, logger },
      { uploadDir: join(dir, 'uploads'), maxBytes: 1e6 },
      {
        filename,
        data: new TextEncoder().encode(text),
      },
    ).then(({ document }) => waitForDocument(db.pool, document.id))
}

const statuses = async () =>
  (
    await db.pool.query<{ status: string; n: number }>(
      'SELECT embedding_status AS status, count(*)::int AS n FROM chunks GROUP BY 1 ORDER BY 1',
    )
  ).rows

// Paragraphs of about 300 characters: two do not fit one 500-character chunk, so each is its own.
const paragraph = (opening: string) => `${opening} ${'It has words that fill the line. '.repeat(9)}`.trim()

describe.skipIf(!hasTokenizer)('embeddings through the pipeline', () => {
  it('stores chunks for keyword search while the model is unavailable, and back-fills them later', async () => {
    const ingestWithoutModel = await pipeline(null)
    const document = await ingestWithoutModel(
      'offline.txt',
      `${paragraph('The lamp charges in three hours.')}\n\n${paragraph('The warranty lasts two years.')}`,
    )
    expect(document.status).toBe('ready')
    expect(await statuses()).toEqual([{ status: 'pending', n: 2 }])
    expect(await backfillEmbeddings(db.pool, embedder)).toBe(2)
    expect(await statuses()).toEqual([{ status: 'done', n: 2 }])
    const { rows } = await db.pool.query<{ norm: number }>('SELECT l2_norm(embedding) AS norm FROM chunks')
    // Stored in half precision: unit length to about three decimals.
    for (const { norm } of rows) expect(norm).toBeCloseTo(1, 3)
    expect(await backfillEmbeddings(db.pool, embedder)).toBe(0)
  })

  it('embeds only text it has not seen when a changed file is re-ingested', async () => {
    let calls: string[] = []
    const counting: Embedder = {
      ...embedder,
      embedPassages: async (texts) => {
        calls.push(...texts)
        return embedder.embedPassages(texts)
      },
    }
    const ingest = await pipeline(counting)
    const [unchanged, old, fresh] = ['Unchanged first.', 'Old second.', 'New second.'].map(paragraph)
    await ingest('manual.txt', `${unchanged}\n\n${old}`)
    expect(calls.sort()).toEqual([old, unchanged])
    calls = []
    const changed = await ingest('manual.txt', `${unchanged}\n\n${fresh}`)
    expect(changed.status).toBe('ready')
    expect(calls).toEqual([fresh])
    const { rows } = await db.pool.query<{ text: string; status: string }>(
      'SELECT text, embedding_status AS status FROM chunks WHERE document_id = $1 ORDER BY text',
      [changed.id],
    )
    expect(rows).toEqual([
      { text: fresh, status: 'done' },
      { text: unchanged, status: 'done' },
    ])
  })

  it('embeds again, rather than reuse vectors made otherwise, when the passage prefix changes', async () => {
    const text = paragraph('Prefixed or not, the same words.')
    await (await pipeline(embedder))('plain.txt', text)
    const prefixed = await loadTransformersEmbedder({
      model: 'test/tiny',
      dim: 8,
      modelsDir: join(dir, 'models'),
      allowDownload: false,
      logger,
      recipe: { pooling: 'mean', queryPrefix: 'query: ', passagePrefix: 'passage: ' },
    })
    try {
      const calls: string[] = []
      const counting: Embedder = {
        ...prefixed,
        embedPassages: async (texts) => {
          calls.push(...texts)
          return prefixed.embedPassages(texts)
        },
      }
      const again = await (await pipeline(counting))('prefixed.txt', text)
      expect(again.status).toBe('ready')
      expect(calls).toEqual([text])
      const { rows } = await db.pool.query<{ embedding: string }>(
        'SELECT DISTINCT embedding::text FROM chunks WHERE text = $1',
        [text],
      )
      expect(rows).toHaveLength(2)
    } finally {
      await prefixed.close?.()
    }
  })
})
