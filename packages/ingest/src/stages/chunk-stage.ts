import { type ChunkOptions, chunkSections } from '@rag/chunking'
import { type chunkJob, embedJob, type JobHandler } from '@rag/queue'
import { currentDocument, setStage } from '../documents.ts'
import type { IngestDeps } from '../ingest-deps.ts'
import { advancePart, getPart, PART_ORDINAL_SPAN } from '../parts.ts'
import { failDocumentOnFinalError } from './fail-document-on-final-error.ts'

/** ingest.chunk: a part's sections become parent sections and small search chunks. */
export function createChunkHandler(
  deps: IngestDeps,
  options: Omit<ChunkOptions, 'firstOrdinal'>,
): JobHandler<typeof chunkJob.payload> {
  return async (payload, context) =>
    failDocumentOnFinalError(deps.pool, payload, context, 'chunk', async () => {
      const { documentId, contentHash, part } = payload
      if (!(await currentDocument(deps.pool, documentId, contentHash))) return { skipped: 'document gone' }
      const record = await getPart(deps.pool, documentId, contentHash, part)
      if (!record) return { skipped: 'part gone' }
      if (record.stage === 'parsed') {
        await setStage(deps.pool, documentId, contentHash, 'chunking')
        const chunked = chunkSections(record.sections ?? [], {
          ...options,
          firstOrdinal: part * PART_ORDINAL_SPAN,
        })
        await advancePart(deps.pool, documentId, contentHash, part, 'chunked', { sections: null, chunked })
      }
      await deps.producer.enqueueAgain(embedJob, payload)
      await context.progress(1)
      return { part }
    })
}
