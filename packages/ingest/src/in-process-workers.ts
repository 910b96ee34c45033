import type { ParsingSection } from '@rag/config'
import type { Pool } from '@rag/db'
import type { Embedder } from '@rag/embeddings'
import type { Logger } from '@rag/log'
import { createParseSandbox } from '@rag/parsers'
import { chunkJob, embedJob, type Producer, parseJob, startWorker, storeJob } from '@rag/queue'
import type { Worker } from 'bullmq'
import { createChunkHandler } from './stages/chunk-stage.ts'
import { createEmbedHandler } from './stages/embed-stage.ts'
import { failDocumentOnFinalFailure } from './stages/fail-document-on-final-error.ts'
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
  /** Memory cap and deadline of the parse sandbox; limits on what one file may hold. */
  parsing?: ParsingSection
  /** Jobs each stage runs at once (production: WORKER_CONCURRENCY). */
  concurrency?: number
}

/** The four ingestion workers in this process (tests); production runs each in its own. */
export function startIngestionWorkers(options: PipelineOptions): Worker[] {
  const deps = { pool: options.pool, producer: options.producer, logger: options.logger }
  const common = {
    redisUrl: options.redisUrl,
    prefix: options.prefix,
    logger: options.logger,
    concurrency: options.concurrency ?? 1,
  }
  const embedder = options.embedder ?? null
  const sandbox = createParseSandbox(options.parsing?.sandbox ?? { memoryMb: 1536, timeoutMs: 300_000 })
  const parser = startWorker({
    ...common,
    definition: parseJob,
    handler: createParseHandler(deps, {
      sectionsPerPart: options.sectionsPerPart ?? 50,
      maxSectionChars: 2000,
      sandbox,
      limits: options.parsing?.limits,
    }),
    onFinalFailure: failDocumentOnFinalFailure(options.pool, 'parse'),
  })
  parser.on('closed', () => sandbox.close())
  return [
    parser,
    startWorker({
      ...common,
      definition: chunkJob,
      handler: createChunkHandler(deps, options.chunk ?? { size: 500, overlap: 100, parentMaxChars: 2000 }),
      onFinalFailure: failDocumentOnFinalFailure(options.pool, 'chunk'),
    }),
    startWorker({
      ...common,
      definition: embedJob,
      handler: createEmbedHandler(deps, async () => embedder),
      onFinalFailure: failDocumentOnFinalFailure(options.pool, 'embed'),
    }),
    startWorker({
      ...common,
      definition: storeJob,
      handler: createStoreHandler(deps, { embeddingModel: embedder?.model ?? null }),
      onFinalFailure: failDocumentOnFinalFailure(options.pool, 'store'),
    }),
  ]
}
