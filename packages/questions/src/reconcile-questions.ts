import type { Pool } from '@rag/db'
import type { Logger } from '@rag/log'
import { generateJob, type Producer, rerankJob, retrieveJob } from '@rag/queue'
import { stuckQuestions } from './question-next-jobs.ts'

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
  const rows = await stuckQuestions(deps.pool, staleAfterMs)
  let enqueued = 0
  for (const { id, nextJob } of rows) {
    const payload = nextJob.payload
    // Each payload is validated by its job definition on the way in.
    if (nextJob.queue === retrieveJob.name) await deps.producer.enqueueAgain(retrieveJob, payload as never)
    else if (nextJob.queue === rerankJob.name) await deps.producer.enqueueAgain(rerankJob, payload as never)
    else if (nextJob.queue === generateJob.name)
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
