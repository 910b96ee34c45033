import type { IngestionSettings } from '@rag/config'
import type { Embedder } from '@rag/embeddings'
import type { ParseSandbox } from '@rag/parsers'
import type { IngestDeps } from './ingest-deps.ts'
import { createChunkHandler } from './stages/chunk-stage.ts'
import { createEmbedHandler } from './stages/embed-stage.ts'
import { createParseHandler } from './stages/parse-stage.ts'
import { createStoreHandler } from './stages/store-stage.ts'

/**
 * The one assembly of the ingestion stages from configuration and dependencies: the worker
 * processes, the in-process workers of tests and `pnpm eval` all build their handlers here, so
 * what is measured and tested is what production runs (e.g. PARENT_MAX_CHARS bounds parsed
 * sections everywhere, not 2000 in tests).
 */
export const ingestionStages = {
  parse: (deps: IngestDeps, settings: IngestionSettings, sandbox: ParseSandbox) =>
    createParseHandler(deps, {
      sectionsPerPart: settings.storage.sectionsPerPart,
      maxSectionChars: settings.chunking.parentMaxChars,
      sandbox,
      limits: settings.parsing.limits,
      ocr: settings.parsing.ocr,
    }),
  chunk: (deps: IngestDeps, settings: Pick<IngestionSettings, 'chunking'>) =>
    createChunkHandler(deps, settings.chunking),
  embed: (deps: IngestDeps, getEmbedder: () => Promise<Embedder | null>) =>
    createEmbedHandler(deps, getEmbedder),
  store: (deps: IngestDeps, embeddingModel: string | null) => createStoreHandler(deps, { embeddingModel }),
}
