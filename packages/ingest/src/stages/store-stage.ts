import { withTransaction } from '@rag/db'
import type { JobHandler, storeJob } from '@rag/queue'
import { currentDocument, setStage } from '../documents.ts'
import { finalizeDocument } from '../finalize-document.ts'
import type { IngestDeps } from '../ingest-deps.ts'
import { getPart } from '../parts.ts'
import { prepareChunkRows, storePart } from '../store-part.ts'
import { failDocumentOnFinalError } from './fail-document-on-final-error.ts'

/** ingest.store: a part in one transaction (see storePart); the last part stored makes the document ready. */
export function createStoreHandler(
  deps: IngestDeps,
  { embeddingModel }: { embeddingModel: string | null },
): JobHandler<typeof storeJob.payload> {
  return async (payload, context) =>
    failDocumentOnFinalError(deps.pool, payload, context, 'store', async () => {
      const { documentId, contentHash, part } = payload
      if (!(await currentDocument(deps.pool, documentId, contentHash))) return { skipped: 'document gone' }
      const record = await getPart(deps.pool, documentId, contentHash, part)
      if (!record) return { skipped: 'part gone' }
      let chunks = 0
      const chunked = record.chunked
      if (record.stage === 'embedded' && chunked) {
        await setStage(deps.pool, documentId, contentHash, 'storing')
        const rows = prepareChunkRows(chunked)
        chunks = await withTransaction(deps.pool, (client) =>
          storePart(client, { documentId, contentHash, part, chunked, rows, embeddingModel }),
        )
      }
      const ready = await finalizeDocument(deps.pool, documentId, contentHash)
      await context.progress(1)
      return { part, chunks, ready }
    })
}
