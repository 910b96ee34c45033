import { FINISHED_QUESTION_STATUSES } from '@rag/api-contract/enums'
import { type Pool, sqlList } from '@rag/db'
import type { Logger } from '@rag/log'
import type { Producer } from '@rag/queue'
import { nextStep, type RoutedQuestion } from './question-route.ts'
import { handOn } from './stages/hand-on.ts'

/**
 * Postgres is the source of truth for questions as for documents: every unfinished, unexpired
 * question that has not moved for `staleAfterMs` gets the job of its next step (derived from its
 * stored state, as a stage hands on) enqueued again: Redis lost it (flushed, restarted without
 * persistence, or down when the question was asked). A job still waiting or running is left
 * alone, so running this often is harmless.
 */
export async function reconcileQuestions(
  deps: { pool: Pool; producer: Pick<Producer, 'enqueue' | 'enqueueAgain'>; logger: Logger },
  { staleAfterMs }: { staleAfterMs: number },
): Promise<number> {
  const { rows } = await deps.pool.query<RoutedQuestion & { id: string }>(
    `SELECT id::text, status, history, search_query AS "searchQuery", queries, options FROM questions
      WHERE status NOT IN (${sqlList(FINISHED_QUESTION_STATUSES)}) AND expires_at > now()
        AND updated_at < now() - make_interval(secs => $1)
      ORDER BY updated_at LIMIT 1000`,
    [staleAfterMs / 1000],
  )
  let enqueued = 0
  for (const question of rows) {
    if (!nextStep(question)) continue
    // As a stage hands on: an answer whose asker has an earlier one in line stays waiting.
    await handOn(deps, question, { again: true })
    enqueued += 1
  }
  if (enqueued > 0) deps.logger.info({ questions: enqueued }, 'reconciled questions whose jobs were lost')
  return enqueued
}
