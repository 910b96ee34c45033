import { isQuestionFinished } from '@rag/api-contract/enums'
import { describeFinalFailure, type FinalFailure } from '@rag/queue'
import {
  type QuestionMove,
  type QuestionPatch,
  type QuestionStatus,
  readQuestion,
  updateQuestion,
} from '../question-store.ts'
import { handOn } from './hand-on.ts'
import type { QuestionContext } from './question-context.ts'

/**
 * Records the move in Postgres (the truth), then tells the question's watchers when its status
 * changed (a stage taking over in the same status says nothing). Returns where the question now
 * stands, or null when it was already finished (a retry after the work was done).
 */
export async function advance(
  deps: Pick<QuestionContext, 'pool' | 'publish'>,
  questionId: string,
  status: QuestionStatus,
  patch: QuestionPatch = {},
): Promise<QuestionMove['question'] | null> {
  const moved = await updateQuestion(deps.pool, questionId, status, patch)
  if (!moved) return null
  if (moved.previousStatus !== status)
    await deps.publish(
      questionId,
      isQuestionFinished(status)
        ? { type: 'finished', status: status as 'done' | 'failed' | 'cancelled' }
        : { type: 'status', status },
    )
  return moved.question
}

/** Moves the question and hands it on to the step its route says comes next. */
export async function advanceAndHandOn(
  deps: Pick<QuestionContext, 'pool' | 'publish' | 'producer'>,
  questionId: string,
  status: QuestionStatus,
  patch: QuestionPatch = {},
): Promise<void> {
  const question = await advance(deps, questionId, status, patch)
  if (question) await handOn(deps, question)
}

/**
 * The failure hook of every question step: a job that will not be tried again fails its question,
 * unless an answer already stands: the LLM's step ending so (its worker killed over and over) leaves
 * the provisional extractive answer as the answer, saying the LLM's is missing and why.
 */
export function failQuestionOnFinalFailure(deps: Pick<QuestionContext, 'pool' | 'publish'>, stage: string) {
  return async ({ questionId }: { questionId: string }, failure: FinalFailure) => {
    const error = describeFinalFailure(stage, 'question', failure)
    const question = await readQuestion(deps.pool, questionId)
    if (question?.provisional && question.answer !== null) {
      await deps.publish(questionId, { type: 'restart' })
      await advance(deps, questionId, 'done', {
        provisional: false,
        degraded: [stage],
        error: `${error} (the extractive answer stands)`,
      })
      return
    }
    await advance(deps, questionId, 'failed', { error })
  }
}

/**
 * Ends an unfinished question as cancelled (its client gone, DELETE /ask/:id): its watchers are
 * told, and a step at work on it stops (the LLM notices within CANCEL_CHECK_MS). False when it had
 * already finished.
 */
export async function cancelQuestion(
  deps: Pick<QuestionContext, 'pool' | 'publish'>,
  questionId: string,
  reason: string,
): Promise<boolean> {
  return (await advance(deps, questionId, 'cancelled', { error: `cancelled: ${reason}` })) !== null
}

export const elapsedMs = (started: number) => Math.round(performance.now() - started)
