import { chunkJob, embedJob, type JobDefinition, parseJob, storeJob } from '@rag/queue'
import type { IngestDeps } from './ingest-deps.ts'
import { markFailed } from './repository/documents.ts'
import { finalizeDocument } from './repository/finalize-document.ts'
import { listParts, type PartStage } from './repository/parts.ts'

const NEXT_JOB = { parsed: chunkJob, chunked: embedJob, embedded: storeJob } as const satisfies Partial<
  Record<PartStage, unknown>
>

const STALLED = 'stalled more than allowable limit'

interface NextStep {
  // biome-ignore lint/suspicious/noExplicitAny: each step's payload is checked by its definition at enqueue
  definition: JobDefinition<any>
  payload: Record<string, unknown>
}

/**
 * Postgres is the source of truth: every document not ready or failed that has not moved for
 * `staleAfterMs` gets the job for the next step of each of its parts again (Redis may have lost
 * it). Jobs still waiting or running are left alone, so running this often is harmless. A job that
 * failed for good (its failure could not be recorded, e.g. Postgres was down then) fails the
 * document instead of being started over, and over.
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
  for (const { id: documentId, contentHash, partsTotal } of rows) {
    const version = { documentId, contentHash }
    const steps: NextStep[] = []
    if (partsTotal === null) steps.push({ definition: parseJob, payload: { documentId, contentHash } })
    for (const { part, stage } of await listParts(deps.pool, version)) {
      if (stage !== 'stored')
        steps.push({ definition: NEXT_JOB[stage], payload: { documentId, contentHash, part } })
    }
    const failure = await firstFinalFailure(deps, steps)
    if (failure) {
      await markFailed(deps.pool, version, failure)
      continue
    }
    for (const { definition, payload } of steps) await deps.producer.enqueueAgain(definition, payload)
    if (partsTotal !== null) await finalizeDocument(deps.pool, version)
  }
  if (rows.length > 0) deps.logger.info({ documents: rows.length }, 'reconciled stuck documents')
  return rows.length
}

async function firstFinalFailure(deps: IngestDeps, steps: NextStep[]): Promise<string | null> {
  for (const { definition, payload } of steps) {
    const reason = await deps.producer.finalFailure(definition, payload)
    if (!reason) continue
    const stage = definition.name.replace(/^ingest\./, '')
    return reason.includes(STALLED)
      ? `${stage}: the ${stage} worker stopped (crashed, killed or out of memory) each time it worked on this document`
      : `${stage}: ${reason}`
  }
  return null
}
