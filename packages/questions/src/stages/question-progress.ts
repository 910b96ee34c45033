import { isQuestionFinished } from '@rag/api-contract/enums'
import { describeFinalFailure, type FinalFailure } from '@rag/queue'
import {
  type QuestionMove,
  type QuestionPatch,
  type QuestionStatus,
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
        ? { type: 'finished', status: status as 'done' | 'failed' }
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

/** The failure hook of every question step: a job that will not be tried again fails its question. */
export function failQuestionOnFinalFailure(deps: Pick<QuestionContext, 'pool' | 'publish'>, stage: string) {
  return async ({ questionId }: { questionId: string }, failure: FinalFailure) => {
    await advance(deps, questionId, 'failed', { error: describeFinalFailure(stage, 'question', failure) })
  }
}

export const elapsedMs = (started: number) => Math.round(performance.now() - started)
