import type { SubmittedQuestion } from '../submit-question.ts'
import { submitQuestion } from '../submit-question.ts'
import { conversationHistory, touchConversation } from './conversation-store.ts'

type SubmitDeps = Parameters<typeof submitQuestion>[0]

/**
 * A message posted to a thread: asked as a question of the thread, carrying its latest answered
 * turns (the follow-up is made to stand alone from them and the answer reads them), and the
 * thread moves to the top of its owner's list, named after its first question.
 */
export async function askInConversation(
  deps: SubmitDeps,
  question: Omit<SubmittedQuestion, 'history'> & { conversationId: string },
): Promise<{ enqueued: boolean }> {
  const history = await conversationHistory(deps.pool, question.conversationId)
  const submitted = await submitQuestion(deps, { ...question, history })
  await touchConversation(deps.pool, question.conversationId, question.question)
  return submitted
}
