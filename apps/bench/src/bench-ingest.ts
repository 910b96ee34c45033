import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { parseArgs } from 'node:util'
import { type BenchProcessConfig, findPreset } from '@rag/config'
import { startEmbeddedPostgres } from '@rag/db'
import { type Embedder, loadTransformersEmbedder } from '@rag/embeddings'
import { findSharedTokenizer, writeTinyEmbeddingModel } from '@rag/embeddings/testing'
import { type IngestDeps, registerDocument, startInProcessIngestion } from '@rag/ingest'
import { createLogger } from '@rag/log'
import { shapeTrueEncoder } from '@rag/model-shapes'
import { writeLargePdf, writeTextCorpus } from './bench-corpus.ts'
import {
  closeRun,
  INGEST_WORKERS,
  openRun,
  startWorkers,
  waitAllReady,
  workersAttached,
} from './bench-run.ts'
import { trackPeakMemory } from './process-memory.ts'

const logger = createLogger({ name: 'bench', level: 'warn' })

/**
 * `pnpm bench ingest [--embedder ID] [--embedded]`: documents/s and chunks/s through the queued
 * pipeline (four worker processes) against the same work in one process (and, with --embedded,
 * the pipeline on the embedded PGlite server), and the peak memory of each worker on a large PDF.
 */
export async function benchIngest(processConfig: BenchProcessConfig, args: string[] = []): Promise<void> {
  const config = processConfig.bench
  const { values } = parseArgs({
    args,
    options: { embedder: { type: 'string' }, embedded: { type: 'boolean', default: false } },
  })
  const work = await mkdtemp(join(tmpdir(), 'rag-bench-'))
  try {
    const { dir: tokenizerDir, found: haveTokenizer } = await findSharedTokenizer(config.sharedDir)
    // --embedder <preset id>: a shape-true copy of a real embedder instead of the tiny one.
    const presetId = values.embedder
    const preset = presetId ? findPreset(presetId) : undefined
    if (presetId !== undefined && preset?.task !== 'embedding')
      throw new Error(`--embedder needs an embedding preset id, got ${presetId || 'nothing'}`)
    let modelsDir = join(work, 'models')
    let embedding: { model: string; dim: number; dtype: string } | null = null
    if (haveTokenizer && preset?.task === 'embedding') {
      const shapeTrue = await shapeTrueEncoder({
        cacheDir: config.modelCache,
        preset,
        head: 'hidden-states',
        tokenizerDir,
      })
      modelsDir = shapeTrue.modelsDir
      embedding = { model: shapeTrue.model, dim: preset.dim, dtype: preset.weights.dtype }
    } else if (haveTokenizer) {
      await writeTinyEmbeddingModel({ dir: join(modelsDir, 'bench/tiny'), tokenizerDir, dim: 8 })
      embedding = { model: 'bench/tiny', dim: 8, dtype: 'q8' }
    }
    // The product's thread budget (ONNX_THREADS) in both runs, so the comparison is fair.
    const embedder: Embedder | null = embedding
      ? await loadTransformersEmbedder({
          model: embedding.model,
          dim: embedding.dim,
          modelsDir,
          allowDownload: false,
          logger,
          dtype: preset?.task === 'embedding' ? preset.weights.dtype : 'q8',
          ...(preset?.task === 'embedding' ? { recipe: preset.recipe } : {}),
          threads: processConfig.models.onnxThreads,
        })
      : null
    const workerEnv: Record<string, string> = embedding
      ? { EMBEDDING_DIM: String(embedding.dim), EMBEDDING_DTYPE: embedding.dtype }
      : {}
    const files = await writeTextCorpus(join(work, 'corpus'), config.documents)
    const uploadDir = join(work, 'uploads')
    console.log(
      `corpus: ${files.length} text documents; embedder: ${embedding ? `${embedding.model} (${preset ? 'shape-true' : 'tiny'}, ${embedding.dim} dims)` : 'none (no tokenizer in SHARED_DIR)'}`,
    )

    const register = async (run: Pick<IngestDeps, 'pool' | 'producer'>, path: string) =>
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

    // The same stage handlers in one process, without queues, each stage as many jobs at once as
    // a worker runs (WORKER_CONCURRENCY): the work the pipeline does, minus Redis and processes.
    const inProcess = await openRun(config, 'inproc', embedding)
    const direct = startInProcessIngestion({
      pool: inProcess.pool,
      logger,
      embedder,
      settings: {
        chunking: processConfig.chunking,
        storage: processConfig.storage,
        parsing: processConfig.parsing,
      },
      concurrency: processConfig.worker.concurrency,
    })
    const started = performance.now()
    for (const path of files) await register({ pool: inProcess.pool, producer: direct.producer }, path)
    await direct.idle()
    const inProcessMs = performance.now() - started
    await direct.close()
    const inProcessResult = await waitAllReady(inProcess.pool, files.length, 1000)
    await closeRun(inProcess)

    // The pipeline: parse, chunk, embed and store workers as separate processes.
    const pipelineRun = async (runConfig: typeof config, label: string) => {
      const run = await openRun(runConfig, label, embedding)
      const workers = startWorkers(runConfig, run, modelsDir, embedding?.model ?? 'none', workerEnv)
      await workersAttached(run)
      const started = performance.now()
      for (const path of files) await register(run, path)
      const result = await waitAllReady(run.pool, files.length, 30 * 60_000)
      const ms = performance.now() - started
      await workers.stop()
      await closeRun(run)
      return { ...result, ms }
    }
    const pipeline = await pipelineRun(config, 'pipeline')

    const rate = (n: number, ms: number) => (n / (ms / 1000)).toFixed(1)
    const line = (label: string, chunks: number, ms: number, failed: number) =>
      `${label} ${files.length} docs, ${chunks} chunks in ${(ms / 1000).toFixed(2)} s = ${rate(files.length, ms)} docs/s, ${rate(chunks, ms)} chunks/s, ${failed} failed`
    console.log(line('in-process:', inProcessResult.chunks, inProcessMs, inProcessResult.failed))
    console.log(line('pipeline:  ', pipeline.chunks, pipeline.ms, pipeline.failed))
    console.log(
      `ratio pipeline / in-process time: ${(pipeline.ms / inProcessMs).toFixed(2)}x (goal <= 1.10x)`,
    )

    // --embedded: the same pipeline against the embedded PGlite server `pnpm start` runs without
    // DATABASE_URL (in memory), to compare with native Postgres.
    if (values.embedded) {
      const server = await startEmbeddedPostgres()
      try {
        const embedded = await pipelineRun({ ...config, databaseUrl: server.url }, 'embedded')
        console.log(line('embedded:  ', embedded.chunks, embedded.ms, embedded.failed))
        console.log(
          `ratio embedded / native pipeline time: ${(embedded.ms / pipeline.ms).toFixed(2)}x (goal <= 2x)`,
        )
      } finally {
        await server.close()
      }
    }

    if (config.pdfPages > 0) {
      const pdf = join(work, `large-${config.pdfPages}.pdf`)
      await writeLargePdf(pdf, config.pdfPages)
      const big = await openRun(config, 'pdf', embedding)
      const bigWorkers = startWorkers(config, big, modelsDir, embedding?.model ?? 'none', workerEnv)
      const memory = trackPeakMemory(bigWorkers, INGEST_WORKERS)
      await workersAttached(big)
      const pdfStarted = performance.now()
      await register(big, pdf)
      const done = await waitAllReady(big.pool, 1, 60 * 60_000)
      const pdfMs = performance.now() - pdfStarted
      const rss = await memory.stop()
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
