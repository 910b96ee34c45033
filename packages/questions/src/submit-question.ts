import type { Pool } from '@rag/db'
import type { Logger } from '@rag/log'
import type { Producer } from '@rag/queue'
import { createQuestion, type NewQuestion } from './question-store.ts'
import { handOn } from './stages/hand-on.ts'

export type SubmittedQuestion = NewQuestion

/**
 * Records a question and enqueues its first step's job. Postgres is the record: when Redis cannot
 * take the job right now the question is still accepted (the question reconciler enqueues it once
 * Redis answers again), so an accepted question is never an orphan and never lost.
 */
export async function submitQuestion(
  deps: { pool: Pool; producer: Pick<Producer, 'enqueue' | 'enqueueAgain'>; logger: Logger },
  question: SubmittedQuestion,
): Promise<{ enqueued: boolean }> {
  const created = await createQuestion(deps.pool, question)
  try {
    await handOn(deps, created)
    return { enqueued: true }
  } catch (error) {
    deps.logger.warn(
      { err: error, questionId: question.id },
      'could not enqueue the question (Redis unreachable?); the reconciler will enqueue it',
    )
    return { enqueued: false }
  }
}
