import type { Pool } from '@rag/db'
import type { Producer } from '@rag/queue'
import { answerPriority, nextAnswerOfAsker, takeAnswerTurn } from '../answer-turns.ts'
import { jobOfStep, nextStep } from '../question-route.ts'
import { type QuestionRecord, readQuestion } from '../question-store.ts'

/**
 * Enqueues the job of the question's next step (none once it is finished). The route is read from
 * the stored question, so a lost enqueue is redone the same way by the reconciler (`again`: a
 * finished job under the same id is replaced). An answer is handed to the LLM only when its
 * asker's turn has come (answer-turns.ts); until then it waits in Postgres.
 */
export async function handOn(
  deps: { pool: Pick<Pool, 'query'>; producer: Pick<Producer, 'enqueue' | 'enqueueAgain'> },
  question: Parameters<typeof nextStep>[0] & Pick<QuestionRecord, 'id'>,
  { again = false }: { again?: boolean } = {},
): Promise<void> {
  const step = nextStep(question)
  if (!step) return
  if (step === 'answer' && !(await takeAnswerTurn(deps.pool, question.id))) return
  const { definition, payload } = jobOfStep(step, question.id)
  const options = step === 'answer' ? { priority: answerPriority(question.options) } : undefined
  if (again) await deps.producer.enqueueAgain(definition, payload, options)
  else await deps.producer.enqueue(definition, payload, options)
}

/**
 * Once an answer has ended (written, failed, cancelled, or found finished), its asker's next one
 * waiting in Postgres is handed to the LLM. Harmless when there is none, or when it is this one
 * still in line (a retry): its job id is already taken.
 */
export async function handOnNextAnswer(
  deps: { pool: Pool; producer: Pick<Producer, 'enqueue' | 'enqueueAgain'> },
  questionId: string,
): Promise<void> {
  const next = await nextAnswerOfAsker(deps.pool, questionId)
  const question = next ? await readQuestion(deps.pool, next) : null
  if (question) await handOn(deps, question)
}
