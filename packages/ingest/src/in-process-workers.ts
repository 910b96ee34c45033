import type { Pool } from '@rag/db'
import type { Embedder } from '@rag/embeddings'
import type { Logger } from '@rag/log'
import { chunkJob, embedJob, type Producer, parseJob, startWorker, storeJob } from '@rag/queue'
import type { Worker } from 'bullmq'
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
