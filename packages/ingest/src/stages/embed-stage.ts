import { indexedText } from '@rag/chunking'
import type { Embedder } from '@rag/embeddings'
import type { embedJob, JobHandler } from '@rag/queue'
import { fillEmbeddingCache } from '../embedding-cache.ts'
import type { IngestDeps } from '../ingest-deps.ts'
import type { PartRef } from '../repository/document-version.ts'
import { currentDocument, refreshDocumentStatus } from '../repository/documents.ts'
import { advancePart, getPart } from '../repository/parts.ts'
import { failDocumentOnFinalError } from './fail-document-on-final-error.ts'

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
  return async (payload, context) =>
    failDocumentOnFinalError(deps.pool, payload, context, 'embed', async () => {
      const { part } = payload
      if (!(await currentDocument(deps.pool, payload))) return { skipped: 'document gone' }
      const record = await getPart(deps.pool, payload)
      if (!record) return { skipped: 'part gone' }
      let embedded = 0
      if (record.stage === 'chunked') {
        await refreshDocumentStatus(deps.pool, payload)
        const embedder = await getEmbedder()
        if (embedder) {
          embedded = await fillEmbeddingCache(
            deps.pool,
            embedder,
            (record.chunked?.chunks ?? []).map(indexedText),
          )
        }
        await advancePart(deps.pool, payload, 'embedded')
        await refreshDocumentStatus(deps.pool, payload)
      }
      await handOn(payload)
      await context.progress(1)
      return { part, embedded }
    })
}
