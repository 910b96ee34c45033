import { withTransaction } from '@rag/db'
import type { JobHandler, storeJob } from '@rag/queue'
import type { IngestDeps } from '../ingest-deps.ts'
import { preparePartRows, storePart } from '../repository/chunks.ts'
import { finalizeDocument } from '../repository/finalize-document.ts'
import { partStep } from './part-step.ts'

/** ingest.store: a part in one transaction (see storePart); the last part stored makes the document ready. */
export function createStoreHandler(
  deps: IngestDeps,
  { embeddingCacheKey }: { embeddingCacheKey: string | null },
): JobHandler<typeof storeJob.payload> {
  return partStep(deps, {
    name: 'store',
    from: 'embedded',
    work: async (record, part) => {
      const chunked = record.chunked
      if (!chunked) return { chunks: 0 }
      const rows = preparePartRows(chunked)
      const chunks = await withTransaction(deps.pool, (client) =>
        storePart(client, part, { chunked, rows, embeddingCacheKey }),
      )
      return chunks === null ? null : { chunks }
    },
    next: async (part) => ({ ready: await finalizeDocument(deps.pool, part) }),
  })
}
