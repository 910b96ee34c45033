import { type QuestionPatch, type QuestionStatus, updateQuestion } from '../question-store.ts'
import type { QuestionStageDeps } from './stage-deps.ts'

/** Records the move in Postgres (the truth), then tells the question's watchers. */
export async function advance(
  deps: Pick<QuestionStageDeps, 'pool' | 'publish'>,
  questionId: string,
  status: QuestionStatus,
  patch: QuestionPatch = {},
): Promise<boolean> {
  const moved = await updateQuestion(deps.pool, questionId, status, patch)
  if (moved) {
    await deps.publish(
      questionId,
      status === 'done' || status === 'failed' ? { type: 'finished', status } : { type: 'status', status },
    )
  }
  return moved
}

/** The failure hook of every question worker: a job that will not be tried again fails its question. */
export function failQuestionOnFinalFailure(deps: Pick<QuestionStageDeps, 'pool' | 'publish'>, stage: string) {
  return async (payload: unknown, error: Error) => {
    const questionId = (payload as { questionId?: unknown })?.questionId
    if (typeof questionId !== 'string') return
    await advance(deps, questionId, 'failed', { error: `${stage}: ${error.message}` })
  }
}

export const elapsedMs = (started: number) => Math.round(performance.now() - started)
