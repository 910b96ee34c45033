import { FINISHED_DOCUMENT_STATUSES } from '@rag/api-contract/enums'
import { sqlList } from '@rag/db'
import { describeFinalFailure } from '@rag/queue'
import type { IngestDeps } from './ingest-deps.ts'
import { ingestionPipeline, stepAfterPartStage } from './ingestion-pipeline.ts'
import { markFailed } from './repository/documents.ts'
import { finalizeDocument } from './repository/finalize-document.ts'
import { listParts } from './repository/parts.ts'

type Step = (typeof ingestionPipeline)[keyof typeof ingestionPipeline]
const FINISHED = sqlList(FINISHED_DOCUMENT_STATUSES)

/**
 * Postgres is the source of truth: every document not ready or failed that has not moved for
 * `staleAfterMs` gets the job for the next step of each of its parts again (Redis may have lost
 * it), the step derived from what Postgres says of the part. Jobs still waiting or running are
 * left alone, so running this often is harmless. A job that failed for good (its failure could
 * not be recorded, e.g. Postgres was down then) fails the document instead of being started over.
 */
export async function reconcileDocuments(
  deps: IngestDeps,
  { staleAfterMs }: { staleAfterMs: number },
): Promise<number> {
  const { rows } = await deps.pool.query<{ id: string; contentHash: string; partsTotal: number | null }>(
    `SELECT id, content_hash AS "contentHash", parts_total AS "partsTotal" FROM documents
      WHERE status NOT IN (${FINISHED}) AND updated_at < now() - make_interval(secs => $1)
      ORDER BY updated_at LIMIT 1000`,
    [staleAfterMs / 1000],
  )
  for (const { id: documentId, contentHash, partsTotal } of rows) {
    const version = { documentId, contentHash }
    const steps: { name: string; step: Step; payload: Record<string, unknown> }[] = []
    // Not parsed to the end: the parse starts again (parts already saved are kept as they are).
    if (partsTotal === null) steps.push({ name: 'parse', step: ingestionPipeline.parse, payload: version })
    for (const { part, stage } of await listParts(deps.pool, version)) {
      const next = stepAfterPartStage(stage)
      if (next) steps.push({ name: next, step: ingestionPipeline[next], payload: { ...version, part } })
    }
    const failure = await firstFinalFailure(deps, steps)
    if (failure) {
      await markFailed(deps.pool, version, failure)
      continue
    }
    for (const { step, payload } of steps) await deps.producer.enqueueAgain(step.job, payload as never)
    if (partsTotal !== null) await finalizeDocument(deps.pool, version)
  }
  if (rows.length > 0) deps.logger.info({ documents: rows.length }, 'reconciled stuck documents')
  return rows.length
}

async function firstFinalFailure(
  deps: IngestDeps,
  steps: { name: string; step: Step; payload: Record<string, unknown> }[],
): Promise<string | null> {
  for (const { name, step, payload } of steps) {
    const failure = await deps.producer.finalFailure(step.job, payload as never)
    if (failure) return describeFinalFailure(name, 'document', failure)
  }
  return null
}
