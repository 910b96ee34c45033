import { withTransaction } from '@rag/db'
import type { JobHandler, storeJob } from '@rag/queue'
import type { IngestDeps } from '../ingest-deps.ts'
import { preparePartRows, storePart } from '../repository/chunks.ts'
import { currentDocument, refreshDocumentStatus } from '../repository/documents.ts'
import { finalizeDocument } from '../repository/finalize-document.ts'
import { getPart } from '../repository/parts.ts'
import { failDocumentOnFinalError } from './fail-document-on-final-error.ts'

/** ingest.store: a part in one transaction (see storePart); the last part stored makes the document ready. */
export function createStoreHandler(
  deps: IngestDeps,
  { embeddingCacheKey }: { embeddingCacheKey: string | null },
): JobHandler<typeof storeJob.payload> {
  return async (payload, context) =>
    failDocumentOnFinalError(deps.pool, payload, context, 'store', async () => {
      const { part } = payload
      if (!(await currentDocument(deps.pool, payload))) return { skipped: 'document gone' }
      const record = await getPart(deps.pool, payload)
      if (!record) return { skipped: 'part gone' }
      let chunks = 0
      const chunked = record.chunked
      if (record.stage === 'embedded' && chunked) {
        await refreshDocumentStatus(deps.pool, payload)
        const rows = preparePartRows(chunked)
        const stored = await withTransaction(deps.pool, (client) =>
          storePart(client, payload, { chunked, rows, embeddingCacheKey }),
        )
        if (stored === null) return { skipped: 'document failed or replaced' }
        chunks = stored
      }
      const ready = await finalizeDocument(deps.pool, payload)
      await context.progress(1)
      return { part, chunks, ready }
    })
}
