import { type IngestionSettings, ingestionDefaults } from '@rag/config'
import type { Pool } from '@rag/db'
import { cacheKeyOf, type Embedder } from '@rag/embeddings'
import type { Logger } from '@rag/log'
import { type Producer, startStepWorker, stepsOf } from '@rag/queue'
import type { Worker } from 'bullmq'
import { createIngestionContext } from './ingestion-context.ts'
import { ingestionPipeline } from './ingestion-pipeline.ts'

export interface PipelineOptions {
  pool: Pool
  producer: Producer
  logger: Logger
  redisUrl: string
  prefix: string
  embedder?: Embedder | null
  /** Configuration of the stages: the defaults a process gets, with any section replaced. */
  settings?: Partial<IngestionSettings>
  /** Jobs each stage runs at once (production: WORKER_CONCURRENCY). */
  concurrency?: number
}

/** Every ingestion step's worker in this process (tests, `pnpm eval`); production runs each in its own. */
export function startIngestionWorkers(options: PipelineOptions): Worker[] {
  const embedder = options.embedder ?? null
  const context = createIngestionContext(
    { pool: options.pool, producer: options.producer, logger: options.logger },
    {
      settings: { ...ingestionDefaults(), ...options.settings },
      getEmbedder: async () => embedder,
      embeddingCacheKey: embedder ? cacheKeyOf(embedder) : null,
    },
  )
  const common = {
    redisUrl: options.redisUrl,
    prefix: options.prefix,
    logger: options.logger,
    concurrency: options.concurrency ?? 1,
  }
  const workers = stepsOf(ingestionPipeline).map((step) => startStepWorker(step, context, common))
  // The sandbox's children end with the last worker.
  let open = workers.length
  for (const worker of workers) worker.on('closed', () => (--open === 0 ? void context.close() : undefined))
  return workers
}
