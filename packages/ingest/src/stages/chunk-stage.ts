import { type ChunkOptions, chunkSections } from '@rag/chunking'
import type { chunkJob, JobHandler } from '@rag/queue'
import type { IngestDeps } from '../ingest-deps.ts'
import type { PartRef } from '../repository/document-version.ts'
import { currentDocument, refreshDocumentStatus } from '../repository/documents.ts'
import { advancePart, getPart, PART_ORDINAL_SPAN } from '../repository/parts.ts'
import { failDocumentOnFinalError } from './fail-document-on-final-error.ts'

/** ingest.chunk: a part's sections become parent sections and small search chunks. */
export function createChunkHandler(
  deps: IngestDeps,
  { handOn, ...options }: Omit<ChunkOptions, 'firstOrdinal'> & { handOn: (part: PartRef) => Promise<void> },
): JobHandler<typeof chunkJob.payload> {
  return async (payload, context) =>
    failDocumentOnFinalError(deps.pool, payload, context, 'chunk', async () => {
      const { part } = payload
      if (!(await currentDocument(deps.pool, payload))) return { skipped: 'document gone' }
      const record = await getPart(deps.pool, payload)
      if (!record) return { skipped: 'part gone' }
      if (record.stage === 'parsed') {
        await refreshDocumentStatus(deps.pool, payload)
        const chunked = chunkSections(record.sections ?? [], {
          ...options,
          firstOrdinal: part * PART_ORDINAL_SPAN,
        })
        await advancePart(deps.pool, payload, 'chunked', { sections: null, chunked })
        await refreshDocumentStatus(deps.pool, payload)
      }
      await handOn(payload)
      await context.progress(1)
      return { part }
    })
}
