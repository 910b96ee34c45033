import type { Producer } from '@rag/queue'
import { jobOfStep, nextStep } from '../question-route.ts'
import type { QuestionRecord } from '../question-store.ts'

/**
 * Enqueues the job of the question's next step (none once it is finished). The route is read from
 * the stored question, so a lost enqueue is redone the same way by the reconciler.
 */
export async function handOn(
  deps: { producer: Pick<Producer, 'enqueue'> },
  question: Parameters<typeof nextStep>[0] & Pick<QuestionRecord, 'id'>,
): Promise<void> {
  const step = nextStep(question)
  if (!step) return
  const { definition, payload } = jobOfStep(step, question.id)
  await deps.producer.enqueue(definition, payload)
}
