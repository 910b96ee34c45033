import type { Pool } from '@rag/db'
import type { Logger } from '@rag/log'
import { generateJob, type Producer, rerankJob, retrieveJob } from '@rag/queue'
import type { NextJob } from './stages/hand-on.ts'

/**
 * Postgres is the source of truth for questions as for documents: every unfinished question that
 * has not moved for `staleAfterMs` gets its next job enqueued again (Redis lost it: flushed,
 * restarted without persistence, or down when the question was asked). A job still waiting or
 * running is left alone, so running this often is harmless.
 */
export async function reconcileQuestions(
  deps: { pool: Pool; producer: Pick<Producer, 'enqueueAgain'>; logger: Logger },
  { staleAfterMs }: { staleAfterMs: number },
): Promise<number> {
  const { rows } = await deps.pool.query<{ id: string; nextJob: NextJob | null }>(
    `SELECT id::text, next_job AS "nextJob" FROM question_jobs
      WHERE status NOT IN ('done', 'failed') AND next_job IS NOT NULL AND expires_at > now()
        AND updated_at < now() - make_interval(secs => $1)
      ORDER BY updated_at LIMIT 1000`,
    [staleAfterMs / 1000],
  )
  let enqueued = 0
  for (const { id, nextJob } of rows) {
    const payload = nextJob?.payload ?? {}
    // Each payload is validated by its job definition on the way in.
    if (nextJob?.queue === retrieveJob.name) await deps.producer.enqueueAgain(retrieveJob, payload as never)
    else if (nextJob?.queue === rerankJob.name) await deps.producer.enqueueAgain(rerankJob, payload as never)
    else if (nextJob?.queue === generateJob.name)
      await deps.producer.enqueueAgain(generateJob, payload as never)
    else {
      deps.logger.warn({ questionId: id, nextJob }, 'a question waits on a job of no known queue')
      continue
    }
    enqueued += 1
  }
  if (enqueued > 0) deps.logger.info({ questions: enqueued }, 'reconciled questions whose jobs were lost')
  return enqueued
}
