import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { PassThrough } from 'node:stream'
import type { BenchConfig } from '@rag/config'
import { processEnvironment } from '@rag/config'
import { createPool, migrate, type Pool, quoteIdentifier } from '@rag/db'
import { type Embedder, loadTransformersEmbedder } from '@rag/embeddings'
import { findSharedTokenizer, writeTinyEmbeddingModel } from '@rag/embeddings/testing'
import { ingestInProcess, registerDocument } from '@rag/ingest'
import { createLogger } from '@rag/log'
import { createProducer, type Producer } from '@rag/queue'
import { ProcessSupervisor } from '@rag/supervisor/process-supervisor'
import { platformPrograms } from '@rag/supervisor/programs'
import { writeLargePdf, writeTextCorpus } from './bench-corpus.ts'

const INGEST_WORKERS = ['worker-parse', 'worker-chunk', 'worker-embed', 'worker-store']
const CHUNKING = { size: 500, overlap: 100, parentMaxChars: 2000 }
const logger = createLogger({ name: 'bench', level: 'warn' })

interface Run {
  schema: string
  prefix: string
  pool: Pool
  producer: Producer
}

async function openRun(
  config: BenchConfig,
  label: string,
  embedding: { model: string; dim: number } | null,
): Promise<Run> {
  const id = randomBytes(3).toString('hex')
  const schema = `bench_${label}_${id}`
  const pool = createPool({ url: config.databaseUrl, schema, max: 4 })
  await migrate(pool, { schema, embedding })
  const prefix = `bench-${label}-${id}`
  return { schema, prefix, pool, producer: await createProducer({ url: config.redisUrl, prefix }) }
}

async function closeRun(run: Run) {
  await run.pool.query(`DROP SCHEMA ${quoteIdentifier(run.schema)} CASCADE`)
  await run.pool.end()
  for (const queue of run.producer.queues.values())
    await queue.obliterate({ force: true }).catch(() => undefined)
  await run.producer.close()
}

async function waitAllReady(pool: Pool, total: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const { rows } = await pool.query<{ done: number; failed: number; chunks: number }>(
      `SELECT count(*) FILTER (WHERE status IN ('ready', 'failed'))::int AS done,
              count(*) FILTER (WHERE status = 'failed')::int AS failed, coalesce(sum(chunk_count), 0)::int AS chunks FROM documents`,
    )
    const row = rows[0] ?? { done: 0, failed: 0, chunks: 0 }
    if (row.done >= total) return row
    if (Date.now() > deadline)
      throw new Error(`only ${row.done}/${total} documents finished in ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

function startWorkers(config: BenchConfig, run: Run, modelsDir: string, embeddingModel: string) {
  const output = new PassThrough()
  output.resume()
  const supervisor = new ProcessSupervisor({
    programs: platformPrograms(INGEST_WORKERS),
    env: {
      ...processEnvironment(),
      DATABASE_URL: config.databaseUrl,
      DB_SCHEMA: run.schema,
      REDIS_URL: config.redisUrl,
      QUEUE_PREFIX: run.prefix,
      EMBEDDING_MODEL: embeddingModel,
      EMBEDDING_DIM: '8',
      MODELS_DIR: modelsDir,
      ALLOW_MODEL_DOWNLOAD: 'false',
      LOG_LEVEL: 'warn',
    },
    output,
  })
  supervisor.start()
  return supervisor
}

async function workersAttached(run: Run) {
  for (;;) {
    const counts = await Promise.all(
      INGEST_WORKERS.map(
        (name) => run.producer.queues.get(`ingest.${name.replace('worker-', '')}`)?.getWorkersCount() ?? 0,
      ),
    )
    if (counts.every((count) => count > 0)) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

async function peakRssMb(pid: number | undefined) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '')
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0)
  return Math.round(kb / 1024)
}

/**
 * `pnpm bench ingest`: documents/s and chunks/s through the queued pipeline (four worker processes)
 * against the same work in one process, and the peak memory of each worker on a large PDF.
 */
export async function benchIngest(config: BenchConfig): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'rag-bench-'))
  try {
    const { dir: tokenizerDir, found: haveTokenizer } = await findSharedTokenizer(config.sharedDir)
    const modelsDir = join(work, 'models')
    let embedder: Embedder | null = null
    if (haveTokenizer) {
      await writeTinyEmbeddingModel({ dir: join(modelsDir, 'bench/tiny'), tokenizerDir, dim: 8 })
      embedder = await loadTransformersEmbedder({
        model: 'bench/tiny',
        dim: 8,
        modelsDir,
        allowDownload: false,
        logger,
      })
    }
    const embedding = embedder ? { model: embedder.model, dim: 8 } : null
    const files = await writeTextCorpus(join(work, 'corpus'), config.documents)
    const uploadDir = join(work, 'uploads')
    console.log(
      `corpus: ${files.length} text documents; embedder: ${embedder ? 'tiny transformers.js model (8 dims)' : 'none (no tokenizer in SHARED_DIR)'}`,
    )

    const register = async (run: Run, path: string) =>
      (
        await registerDocument(
          { pool: run.pool, producer: run.producer, logger },
          { uploadDir, maxBytes: 1e9 },
          {
            filename: basename(path),
            data: await readFile(path),
          },
        )
      ).document.id

    // In one process, no queues.
    const inProcess = await openRun(config, 'inproc', embedding)
    const started = performance.now()
    let inProcessChunks = 0
    for (const path of files) {
      const id = await register(inProcess, path)
      inProcessChunks += await ingestInProcess(inProcess.pool, id, {
        embedder,
        chunking: CHUNKING,
        sectionsPerPart: 50,
      })
    }
    const inProcessMs = performance.now() - started
    await closeRun(inProcess)

    // The pipeline: parse, chunk, embed and store workers as separate processes.
    const pipeline = await openRun(config, 'pipeline', embedding)
    const workers = startWorkers(config, pipeline, modelsDir, embedding?.model ?? 'none')
    await workersAttached(pipeline)
    const pipelineStarted = performance.now()
    for (const path of files) await register(pipeline, path)
    const result = await waitAllReady(pipeline.pool, files.length, 30 * 60_000)
    const pipelineMs = performance.now() - pipelineStarted
    await workers.stop()
    await closeRun(pipeline)

    const rate = (n: number, ms: number) => (n / (ms / 1000)).toFixed(1)
    console.log(
      `in-process: ${files.length} docs, ${inProcessChunks} chunks in ${(inProcessMs / 1000).toFixed(2)} s = ${rate(files.length, inProcessMs)} docs/s, ${rate(inProcessChunks, inProcessMs)} chunks/s`,
    )
    console.log(
      `pipeline:   ${files.length} docs, ${result.chunks} chunks in ${(pipelineMs / 1000).toFixed(2)} s = ${rate(files.length, pipelineMs)} docs/s, ${rate(result.chunks, pipelineMs)} chunks/s, ${result.failed} failed`,
    )
    console.log(`ratio pipeline / in-process time: ${(pipelineMs / inProcessMs).toFixed(2)}x (goal <= 1.15x)`)

    if (config.pdfPages > 0) {
      const pdf = join(work, `large-${config.pdfPages}.pdf`)
      await writeLargePdf(pdf, config.pdfPages)
      const big = await openRun(config, 'pdf', embedding)
      const bigWorkers = startWorkers(config, big, modelsDir, embedding?.model ?? 'none')
      await workersAttached(big)
      const pdfStarted = performance.now()
      await register(big, pdf)
      const done = await waitAllReady(big.pool, 1, 60 * 60_000)
      const pdfMs = performance.now() - pdfStarted
      const rss = await Promise.all(
        INGEST_WORKERS.map(async (name) => `${name} ${await peakRssMb(bigWorkers.pid(name))} MB`),
      )
      console.log(
        `${config.pdfPages}-page PDF: ${done.chunks} chunks in ${(pdfMs / 1000).toFixed(1)} s, ${done.failed} failed; peak RSS: ${rss.join(', ')} (goal < 1024 MB each)`,
      )
      await bigWorkers.stop()
      await closeRun(big)
    }
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}
