import { type IngestionSettings, ingestionDefaults } from '@rag/config'
import type { Pool } from '@rag/db'
import type { Embedder } from '@rag/embeddings'
import type { Logger } from '@rag/log'
import { createParseSandbox } from '@rag/parsers'
import { chunkJob, embedJob, type Producer, parseJob, startWorker, storeJob } from '@rag/queue'
import type { Worker } from 'bullmq'
import { ingestionStages } from './ingestion-stages.ts'
import { failDocumentOnFinalFailure } from './stages/fail-document-on-final-error.ts'

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
  const settings = { ...ingestionDefaults(), ...options.settings }
  const sandbox = createParseSandbox(settings.parsing.sandbox)
  const parser = startWorker({
    ...common,
    definition: parseJob,
    handler: ingestionStages.parse(deps, settings, sandbox),
    onFinalFailure: failDocumentOnFinalFailure(options.pool, 'parse'),
  })
  parser.on('closed', () => sandbox.close())
  return [
    parser,
    startWorker({
      ...common,
      definition: chunkJob,
      handler: ingestionStages.chunk(deps, settings),
      onFinalFailure: failDocumentOnFinalFailure(options.pool, 'chunk'),
    }),
    startWorker({
      ...common,
      definition: embedJob,
      handler: ingestionStages.embed(deps, async () => embedder),
      onFinalFailure: failDocumentOnFinalFailure(options.pool, 'embed'),
    }),
    startWorker({
      ...common,
      definition: storeJob,
      handler: ingestionStages.store(deps, embedder?.model ?? null),
      onFinalFailure: failDocumentOnFinalFailure(options.pool, 'store'),
    }),
  ]
}
