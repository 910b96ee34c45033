import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { processEnvironment } from '@rag/config'
import { createTestDatabase, readTestConfig, type TestDatabase } from '@rag/db/testing'
import { findSharedTokenizer, writeTinyEmbeddingModel } from '@rag/embeddings/testing'
import { reconcileDocuments, registerDocument } from '@rag/ingest'
import { createLogger } from '@rag/log'
import { processCommands, workersOf } from '@rag/process-catalog'
import { ProcessSupervisor } from '@rag/process-supervisor'
import { killWorker } from '@rag/process-supervisor/testing'
import { createProducer, type Producer } from '@rag/queue'
import { dropPrefix, testRedisUrl, uniquePrefix } from '@rag/queue/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectExactChunks, numberedDocument, SMALL_CHUNKS } from './testing/numbered-documents.ts'

// The ingestion workers as real processes against the real Redis and Postgres, killed with SIGKILL
// in the middle of work (the supervisor restarts them), and Redis losing every job: every document
// must still end ready with exactly the chunks it should have, none twice.

const logger = createLogger({ name: 'test', level: 'silent' })
const redisUrl = testRedisUrl()
const chunking = SMALL_CHUNKS
const { dir: tokenizerDir, found: hasTokenizer } = await findSharedTokenizer(readTestConfig().sharedDir)
if (!hasTokenizer)
  console.warn(`fault tests run keyword-only: no tokenizer at ${tokenizerDir} (set SHARED_DIR)`)
let db: TestDatabase
let workDir: string

beforeAll(async () => {
  db = await createTestDatabase('faults')
  workDir = await mkdtemp(join(tmpdir(), 'rag-faults-'))
  if (hasTokenizer)
    await writeTinyEmbeddingModel({ dir: join(workDir, 'models/test/tiny'), tokenizerDir, dim: 8 })
})

afterAll(async () => {
  await db?.drop()
  await rm(workDir, { recursive: true, force: true })
})

async function runScenario(
  label: string,
  disrupt: (ctx: { supervisor: ProcessSupervisor; producer: Producer; prefix: string }) => Promise<void>,
) {
  const prefix = uniquePrefix(label)
  const collection = label
  const output = new PassThrough()
  output.resume()
  const supervisor = new ProcessSupervisor({
    programs: processCommands(workersOf('ingestion')),
    env: {
      ...processEnvironment(),
      DATABASE_URL: db.url,
      DB_SCHEMA: db.schema,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: prefix,
      CHUNK_SIZE: String(chunking.size),
      CHUNK_OVERLAP: String(chunking.overlap),
      PARENT_MAX_CHARS: String(chunking.parentMaxChars),
      EMBEDDING_MODEL: hasTokenizer ? 'test/tiny' : 'none',
      EMBEDDING_DIM: '8',
      MODELS_DIR: join(workDir, 'models'),
      ALLOW_MODEL_DOWNLOAD: 'false',
      JOB_LOCK_SECONDS: '2',
      LOG_LEVEL: 'warn',
    },
    output,
    restartDelayMs: 200,
  })
  const restarted: string[] = []
  supervisor.on('restart', ({ name }) => restarted.push(name))
  const producer = await createProducer({ url: redisUrl, prefix })
  try {
    supervisor.start()
    const ids: string[] = []
    for (let n = 0; n < 50; n++) {
      const data = new TextEncoder().encode(numberedDocument(n))
      const { document } = await registerDocument(
        { pool: db.pool, producer, logger },
        { uploadDir: join(workDir, 'uploads'), maxBytes: 1_000_000 },
        { filename: `doc-${n}.txt`, data, collection },
      )
      ids.push(document.id)
    }
    await disrupt({ supervisor, producer, prefix })
    // What the gateway does every RECONCILE_AFTER_SECONDS, here every second.
    const reconciler = setInterval(() => {
      void reconcileDocuments({ pool: db.pool, producer, logger }, { staleAfterMs: 1000 }).catch(
        () => undefined,
      )
    }, 1000)
    try {
      await expect
        .poll(
          async () =>
            (
              await db.pool.query<{ n: number }>(
                "SELECT count(*)::int AS n FROM documents WHERE collection = $1 AND status IN ('ready', 'failed')",
                [collection],
              )
            ).rows[0]?.n,
          { timeout: 150_000, interval: 500 },
        )
        .toBe(50)
    } finally {
      clearInterval(reconciler)
    }
    expect(await expectExactChunks(db.pool, collection)).toBe(50)
    if (hasTokenizer) {
      const { rows: pending } = await db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM chunks c JOIN documents d ON d.id = c.document_id
          WHERE d.collection = $1 AND (c.embedding_status <> 'done' OR c.embedding IS NULL)`,
        [collection],
      )
      expect(pending[0]?.n).toBe(0)
    }
    return { ids, restarted }
  } finally {
    await supervisor.stop(5000)
    await producer.close()
    await dropPrefix(redisUrl, prefix)
  }
}

/**
 * Waits until some documents are in one of the given stages (not yet done), and checks that not
 * all are ready: a fault injected after the end would prove nothing.
 */
async function midway(collection: string, statuses: string[]) {
  const counts = async () =>
    (
      await db.pool.query<{ inStage: number; ready: number; total: number }>(
        `SELECT count(*) FILTER (WHERE status = ANY($2))::int AS "inStage",
                count(*) FILTER (WHERE status = 'ready')::int AS ready, count(*)::int AS total
           FROM documents WHERE collection = $1`,
        [collection, statuses],
      )
    ).rows[0]
  await expect
    .poll(async () => (await counts())?.inStage, { timeout: 60_000, interval: 50 })
    .toBeGreaterThan(0)
  const now = await counts()
  expect(now?.ready).toBeLessThan(now?.total ?? 0)
}

describe('ingestion under faults (50 documents, real worker processes)', () => {
  it('survives SIGKILL of the embed worker mid-ingestion', async () => {
    const { restarted } = await runScenario('kill-embed', async ({ supervisor }) => {
      await midway('kill-embed', ['embedding'])
      killWorker(supervisor, 'worker-embed')
    })
    expect(restarted).toEqual(['worker-embed'])
  }, 240_000)

  it('survives SIGKILL of the store worker mid-ingestion', async () => {
    const { restarted } = await runScenario('kill-store', async ({ supervisor }) => {
      await midway('kill-store', ['storing'])
      killWorker(supervisor, 'worker-store')
    })
    expect(restarted).toEqual(['worker-store'])
  }, 240_000)

  it('finishes every document after Redis loses all its jobs, through the reconciler', async () => {
    await runScenario('flush-redis', async ({ prefix }) => {
      await midway('flush-redis', ['chunking', 'embedding', 'storing'])
      await dropPrefix(redisUrl, prefix)
    })
  }, 240_000)
})
