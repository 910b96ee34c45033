import { chunkJob, embedJob, parseJob, storeJob } from '@rag/queue'
import { finalizeDocument } from './finalize-document.ts'
import type { IngestDeps } from './ingest-deps.ts'
import { listParts, type PartStage } from './parts.ts'

const NEXT_JOB = { parsed: chunkJob, chunked: embedJob, embedded: storeJob } as const satisfies Partial<
  Record<PartStage, unknown>
>

/**
 * Postgres is the source of truth: every document not ready or failed that has not moved for
 * `staleAfterMs` gets the job for the next step of each of its parts again (Redis may have lost
 * it). Jobs still waiting or running are left alone, so running this often is harmless.
 */
export async function reconcileDocuments(
  deps: IngestDeps,
  { staleAfterMs }: { staleAfterMs: number },
): Promise<number> {
  const { rows } = await deps.pool.query<{ id: string; contentHash: string; partsTotal: number | null }>(
    `SELECT id, content_hash AS "contentHash", parts_total AS "partsTotal" FROM documents
      WHERE status NOT IN ('ready', 'failed') AND updated_at < now() - make_interval(secs => $1)
      ORDER BY updated_at LIMIT 1000`,
    [staleAfterMs / 1000],
  )
  for (const { id, contentHash, partsTotal } of rows) {
    const documentId = id
    const parts = await listParts(deps.pool, documentId, contentHash)
    if (partsTotal === null) await deps.producer.enqueueAgain(parseJob, { documentId, contentHash })
    for (const { part, stage } of parts) {
      if (stage === 'stored') continue
      await deps.producer.enqueueAgain(NEXT_JOB[stage], { documentId, contentHash, part })
    }
    if (partsTotal !== null) await finalizeDocument(deps.pool, documentId, contentHash)
  }
  if (rows.length > 0) deps.logger.info({ documents: rows.length }, 'reconciled stuck documents')
  return rows.length
}
