import { indexedText } from '@rag/chunking'
import type { Embedder } from '@rag/embeddings'
import type { embedJob, JobHandler } from '@rag/queue'
import { fillEmbeddingCache } from '../embedding-cache.ts'
import type { IngestDeps } from '../ingest-deps.ts'
import type { PartRef } from '../repository/document-version.ts'
import { advancePart } from '../repository/parts.ts'
import { partStep } from './part-step.ts'

/**
 * ingest.embed: vectors for a part's chunks, through the cache (unchanged text is never embedded
 * twice). Without a usable model the part goes on for keyword search; its chunks stay "pending"
 * and are back-filled when the model becomes available.
 */
export function createEmbedHandler(
  deps: IngestDeps,
  {
    getEmbedder,
    handOn,
  }: { getEmbedder: () => Promise<Embedder | null>; handOn: (part: PartRef) => Promise<void> },
): JobHandler<typeof embedJob.payload> {
  return partStep(deps, {
    name: 'embed',
    from: 'chunked',
    work: async (record, part) => {
      const embedder = await getEmbedder()
      const embedded = embedder
        ? await fillEmbeddingCache(deps.pool, embedder, (record.chunked?.chunks ?? []).map(indexedText))
        : 0
      await advancePart(deps.pool, part, 'embedded')
      return { embedded }
    },
    next: async (part) => {
      await handOn(part)
      return undefined
    },
  })
}
