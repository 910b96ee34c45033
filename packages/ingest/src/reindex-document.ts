import type { Pool } from '@rag/db'
import { type Producer, parseJob } from '@rag/queue'
import { REINDEX_ALL_PRIORITY } from './register-document.ts'
import { requeueDocument } from './repository/documents.ts'

/**
 * Puts a document back at the start of the pipeline with the content it has (its searchable
 * version stays until the new one replaces it). `everything`: part of a re-index of the whole
 * library, which waits behind every upload. False when there is no such document.
 */
export async function reindexDocument(
  deps: { pool: Pool; producer: Pick<Producer, 'enqueueAgain'> },
  id: string,
  { everything = false }: { everything?: boolean } = {},
): Promise<boolean> {
  const contentHash = await requeueDocument(deps.pool, id)
  if (!contentHash) return false
  await deps.producer.enqueueAgain(
    parseJob,
    { documentId: id, contentHash },
    everything ? { priority: REINDEX_ALL_PRIORITY } : undefined,
  )
  return true
}
