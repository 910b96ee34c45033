import {
  type EmbeddingSection,
  embeddingCacheKey,
  type IngestionSettings,
  ingestionSettingsOf,
} from '@rag/config'
import type { Embedder } from '@rag/embeddings'
import { createParseSandbox, PARSE_CHILD, type ParseSandbox } from '@rag/parsers'
import { freshBundle } from '@rag/runtime'
import type { IngestDeps } from './ingest-deps.ts'

/**
 * What an ingestion process gives the stages: its connections, the ingestion settings (the
 * process's own sections, the defaults for the rest: a stage reads only its own), and its models.
 */
export interface IngestionContext extends IngestDeps {
  settings: IngestionSettings
  /** The parse stage's sandbox (child processes under a cap), made on first use. */
  sandbox(): ParseSandbox
  /** The embedding model, or null while it is off or unavailable (chunks then wait for vectors). */
  getEmbedder(): Promise<Embedder | null>
  /** The embedding cache key (model and settings) whose cached vectors the store stage reads (null: no embedding model configured). */
  embeddingCacheKey: string | null
  /** Ends what the context made (the sandbox's children). */
  close(): Promise<void>
}

export function createIngestionContext(
  deps: IngestDeps,
  {
    settings,
    getEmbedder,
    embeddingCacheKey,
  }: Pick<IngestionContext, 'settings' | 'getEmbedder' | 'embeddingCacheKey'>,
): IngestionContext {
  let sandbox: ParseSandbox | undefined
  return {
    ...deps,
    settings,
    getEmbedder,
    embeddingCacheKey,
    sandbox: () => {
      // The parse child from its build while that is current (a third of the CPU per child).
      sandbox ??= createParseSandbox(
        settings.parsing.sandbox,
        freshBundle(PARSE_CHILD.bundle.path) ? PARSE_CHILD.bundle : PARSE_CHILD.source,
      )
      return sandbox
    },
    close: async () => {
      await sandbox?.close()
    },
  }
}

/**
 * The context of an ingestion worker process, from what its host gives it: its config's sections
 * (the defaults for those it does not read), its connections and, for the embed worker, the
 * model. What the context makes ends with the process.
 */
export function ingestionWorkerContext(
  worker: IngestDeps & {
    config: Partial<IngestionSettings> & { models: { embedding: EmbeddingSection } }
    shutdown: { add(name: string, close: () => Promise<void>): void }
  },
  getEmbedder: () => Promise<Embedder | null> = async () => null,
): IngestionContext {
  const context = createIngestionContext(
    { pool: worker.pool, producer: worker.producer, logger: worker.logger },
    {
      settings: ingestionSettingsOf(worker.config),
      getEmbedder,
      // The store stage reads the vectors the embed worker cached for the configured model and settings.
      embeddingCacheKey: embeddingCacheKeyOfConfig(worker.config.models.embedding),
    },
  )
  worker.shutdown.add('ingestion context', () => context.close())
  return context
}

const embeddingCacheKeyOfConfig = (embedding: EmbeddingSection) =>
  embedding.model ? embeddingCacheKey({ ...embedding, model: embedding.model }) : null
