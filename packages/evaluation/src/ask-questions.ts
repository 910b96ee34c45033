import type { AskOptions } from '@rag/api-contract'
import type { RetrievalSection } from '@rag/config'
import type { Pool } from '@rag/db'
import type { Logger } from '@rag/log'
import {
  type AnsweringModels,
  askQuestion,
  type QuestionRecord,
  readQuestion,
  watchQuestion,
} from '@rag/questions'
import type { Producer, QuestionEventSubscriber } from '@rag/queue'
import type { EvalQuestion } from './dataset.ts'

export interface AskDeps {
  pool: Pool
  producer: Producer
  logger: Logger
  questionEvents: QuestionEventSubscriber
  retrieval: RetrievalSection
  models: AnsweringModels
}

/** Asks one question the way POST /ask does and resolves with its finished record. */
async function askOne(deps: AskDeps, question: EvalQuestion, options: AskOptions): Promise<QuestionRecord> {
  const watch = {
    events: deps.questionEvents,
    // Only the finished record is read: the answer's pieces as they are written are not.
    partialAnswer: async () => '',
    current: async (questionId: string) => {
      const record = await readQuestion(deps.pool, questionId)
      if (!record) throw new Error(`the question ${questionId} is gone`)
      return record
    },
  }
  // Batch work: in the LLM's line, every person's question goes first. Asked as an admin would.
  const { id } = await askQuestion(
    deps,
    { question: question.query, options, batch: true },
    { collections: null },
  )
  // The follower reads the question after subscribing, so an end reached before that is seen too.
  for await (const update of watchQuestion(id, watch)) if (update.type === 'finished') return update.question
  throw new Error(`stopped watching question ${id} before it finished`)
}

/** Every question through the question path, `concurrency` at a time, in the dataset's order. */
export async function askQuestions(
  deps: AskDeps,
  questions: EvalQuestion[],
  options: AskOptions,
  { concurrency = 16, onProgress }: { concurrency?: number; onProgress?: (done: number) => void } = {},
): Promise<QuestionRecord[]> {
  const records: QuestionRecord[] = new Array(questions.length)
  let next = 0
  let done = 0
  const lane = async () => {
    for (let index = next++; index < questions.length; index = next++) {
      records[index] = await askOne(deps, questions[index] as EvalQuestion, options)
      onProgress?.(++done)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, lane))
  return records
}
