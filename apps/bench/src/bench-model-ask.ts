import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BenchConfig, EmbedderPreset, LlmPreset, RerankerPreset } from '@rag/config'
import { createTestGateway, keywordOnlySearch } from '@rag/http-api/testing'
import { registerDocument } from '@rag/ingest'
import { shapeTrueDecoder, shapeTrueEncoder } from '@rag/model-shapes'
import { workersOf } from '@rag/process-catalog'
import type { InferenceBench } from './bench-model-inference.ts'
import {
  closeRun,
  INGEST_WORKERS,
  openRun,
  startWorkers,
  waitAllReady,
  workersAttached,
} from './bench-run.ts'
import { percentile } from './percentile.ts'
import { trackPeakMemory } from './process-memory.ts'

const QUESTION_WORKERS = workersOf('question')

/**
 * POST /ask → done in hybrid + rerank + generate mode through the real worker processes, each
 * running its shape-true model with the product's default threads, over Japanese documents
 * ingested by the same workers; then the peak memory of every worker.
 */
export async function benchAskThroughWorkers(
  config: BenchConfig,
  bench: InferenceBench,
  models: { embedder: EmbedderPreset; reranker: RerankerPreset; llm: LlmPreset },
  { documents, questions, maxTokens }: { documents: number; questions: number; maxTokens: number },
) {
  const embedder = await shapeTrueEncoder({ ...bench, preset: models.embedder, head: 'hidden-states' })
  const reranker = await shapeTrueEncoder({ ...bench, preset: models.reranker, head: 'classifier' })
  const gguf = await shapeTrueDecoder({ cacheDir: bench.cacheDir, preset: models.llm })
  const work = await mkdtemp(join(tmpdir(), 'rag-bench-models-'))
  const run = await openRun(config, 'models', { model: embedder.model, dim: models.embedder.dim })
  const workers = startWorkers(
    config,
    run,
    embedder.modelsDir,
    embedder.model,
    {
      EMBEDDING_DIM: String(models.embedder.dim),
      EMBEDDING_DTYPE: models.embedder.weights.dtype,
      RERANKER_MODEL: reranker.model,
      RERANKER_DTYPE: models.reranker.weights.dtype,
      LLM_MODEL: gguf,
      LLM_MAX_TOKENS: String(maxTokens),
      // Every question is answered (random weights would make any threshold arbitrary).
      REFUSAL_THRESHOLD: '0',
      RERANK_REFUSAL_THRESHOLD: '0',
    },
    [...INGEST_WORKERS, ...QUESTION_WORKERS],
  )
  const memory = trackPeakMemory(workers, [...INGEST_WORKERS, ...QUESTION_WORKERS])
  const retrieval = { ...keywordOnlySearch.retrieval, refusalThreshold: 0, rerankRefusalThreshold: 0 }
  const gateway = await createTestGateway(
    {
      pool: run.pool,
      producer: run.producer,
      logger: bench.logger,
      redisUrl: config.redisUrl,
      prefix: run.prefix,
    },
    { uploadDir: join(work, 'uploads'), maxBytes: 1e8, maxFiles: 1 },
    { retrieval, models: { reranker: reranker.model, llm: gguf } },
  )
  try {
    await workersAttached(run)
    const texts = bench.texts.passages.slice(0, documents)
    for (const [i, text] of texts.entries()) {
      await registerDocument(
        { pool: run.pool, producer: run.producer, logger: bench.logger },
        { uploadDir: join(work, 'uploads'), maxBytes: 1e8 },
        { filename: `doc-${i}.txt`, data: Buffer.from(text) },
      )
    }
    const ingested = await waitAllReady(run.pool, texts.length, 30 * 60_000)
    const ask = async (question: string) => {
      const started = performance.now()
      const response = await gateway.app.request('/ask', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question, options: { mode: 'hybrid', rerank: true, answer: 'generate' } }),
      })
      const { id } = (await response.json()) as { id: string }
      const events = await (await gateway.app.request(`/ask/${id}/events`)).text()
      return {
        ms: performance.now() - started,
        generated: /"answer"/.test(events) && !/degraded":true/.test(events),
      }
    }
    // The first question waits for the models to load; it is not counted.
    await ask(bench.texts.questions[0] ?? '質問')
    const times: number[] = []
    let generated = 0
    for (const question of bench.texts.questions.slice(1, questions + 1)) {
      const result = await ask(question)
      times.push(result.ms)
      if (result.generated) generated++
    }
    console.log(
      `  ${ingested.chunks} chunks from ${texts.length} documents; ${times.length} questions one at a time: ` +
        `p50 ${(percentile(times, 50) / 1000).toFixed(1)} s, p95 ${(percentile(times, 95) / 1000).toFixed(1)} s (${generated} generated, not degraded)`,
    )
    const rss = await memory.stop()
    console.log(`  peak RSS: ${rss.join(', ')}`)
  } finally {
    await gateway.close()
    await workers.stop()
    await closeRun(run)
    await rm(work, { recursive: true, force: true })
  }
}
