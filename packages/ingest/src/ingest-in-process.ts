import { type IngestionSettings, ingestionDefaults } from '@rag/config'
import type { Pool } from '@rag/db'
import { cacheKeyOf, type Embedder } from '@rag/embeddings'
import type { Logger } from '@rag/log'
import { createDirectRunner, type DirectRunner, stepsOf } from '@rag/queue'
import { createIngestionContext } from './ingestion-context.ts'
import { ingestionPipeline } from './ingestion-pipeline.ts'

export interface InProcessIngestion extends Pick<DirectRunner, 'producer' | 'idle' | 'failures'> {
  close(): Promise<void>
}

/**
 * The ingestion pipeline's own steps run in this process without queues: each stage
 * `concurrency` jobs at once, as WORKER_CONCURRENCY gives each worker. Register documents with
 * its producer, then wait for `idle()`. The baseline of `pnpm bench ingest`.
 */
export function startInProcessIngestion({
  pool,
  logger,
  embedder,
  settings = ingestionDefaults(),
  concurrency,
}: {
  pool: Pool
  logger: Logger
  embedder: Embedder | null
  settings?: IngestionSettings
  concurrency: number
}): InProcessIngestion {
  const runner = createDirectRunner({ concurrency, logger })
  const context = createIngestionContext(
    { pool, producer: runner.producer, logger },
    {
      settings,
      getEmbedder: async () => embedder,
      embeddingCacheKey: embedder ? cacheKeyOf(embedder) : null,
    },
  )
  for (const step of stepsOf(ingestionPipeline)) runner.register(step, context)
  return {
    producer: runner.producer,
    idle: () => runner.idle(),
    failures: runner.failures,
    close: async () => {
      await runner.idle()
      await context.close()
    },
  }
}
