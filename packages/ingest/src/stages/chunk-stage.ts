import { type ChunkOptions, chunkSections } from '@rag/chunking'
import type { chunkJob, JobHandler } from '@rag/queue'
import type { IngestDeps } from '../ingest-deps.ts'
import type { PartRef } from '../repository/document-version.ts'
import { advancePart, PART_ORDINAL_SPAN } from '../repository/parts.ts'
import { partStep } from './part-step.ts'

/** ingest.chunk: a part's sections become parent sections and small search chunks. */
export function createChunkHandler(
  deps: IngestDeps,
  { handOn, ...options }: Omit<ChunkOptions, 'firstOrdinal'> & { handOn: (part: PartRef) => Promise<void> },
): JobHandler<typeof chunkJob.payload> {
  return partStep(deps, {
    name: 'chunk',
    from: 'parsed',
    work: async (record, part) => {
      const chunked = chunkSections(record.sections ?? [], {
        ...options,
        firstOrdinal: part.part * PART_ORDINAL_SPAN,
      })
      await advancePart(deps.pool, part, 'chunked', { sections: null, chunked })
      return {}
    },
    next: async (part) => {
      await handOn(part)
      return undefined
    },
  })
}
