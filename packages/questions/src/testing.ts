import type { Pool } from '@rag/db'
import { isFinished, type QuestionRecord, readQuestion } from './question-store.ts'

export { type QuestionWorkersOptions, startQuestionWorkers } from './in-process-workers.ts'

/** Polls until the question is done or failed (or the deadline passes). */
export async function waitForQuestion(pool: Pool, id: string, timeoutMs = 120_000): Promise<QuestionRecord> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const question = await readQuestion(pool, id)
    if (question && isFinished(question.status)) return question
    if (Date.now() > deadline)
      throw new Error(`question ${id} still ${question?.status} after ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
