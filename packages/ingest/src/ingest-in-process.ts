import { type IngestionSettings, ingestionDefaults } from '@rag/config'
import type { Pool } from '@rag/db'
import type { Embedder } from '@rag/embeddings'
import type { Logger } from '@rag/log'
import { createParseSandbox } from '@rag/parsers'
import { chunkJob, createDirectRunner, type DirectRunner, embedJob, parseJob, storeJob } from '@rag/queue'
import { ingestionStages } from './ingestion-stages.ts'

export interface InProcessIngestion extends Pick<DirectRunner, 'producer' | 'idle' | 'failures'> {
  close(): Promise<void>
}

/**
 * The ingestion stages' own handlers, assembled as the workers assemble them, run in this process
 * without queues: each stage `concurrency` jobs at once, as WORKER_CONCURRENCY gives each worker.
 * Register documents with its producer, then wait for `idle()`. The baseline of `pnpm bench ingest`.
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
  const deps = { pool, producer: runner.producer, logger }
  const sandbox = createParseSandbox(settings.parsing.sandbox)
  runner.register(parseJob, ingestionStages.parse(deps, settings, sandbox))
  runner.register(chunkJob, ingestionStages.chunk(deps, settings))
  runner.register(
    embedJob,
    ingestionStages.embed(deps, async () => embedder),
  )
  runner.register(storeJob, ingestionStages.store(deps, embedder?.model ?? null))
  return {
    producer: runner.producer,
    idle: () => runner.idle(),
    failures: runner.failures,
    close: async () => {
      await runner.idle()
      await sandbox.close()
    },
  }
}
