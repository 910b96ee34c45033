import { randomUUID } from 'node:crypto'
import type { AskOptions } from '@rag/api-contract'
import type { RetrievalSection } from '@rag/config'
import type { Pool } from '@rag/db'
import type { Logger } from '@rag/log'
import {
  type AnsweringModels,
  isFinished,
  type QuestionRecord,
  readQuestion,
  resolveOptions,
  submitQuestion,
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
  const id = randomUUID()
  let finished: () => void = () => undefined
  const signal = new Promise<void>((resolve) => {
    finished = resolve
  })
  const unsubscribe = await deps.questionEvents.subscribe(id, (event) => {
    if (event.type === 'finished') finished()
  })
  try {
    await submitQuestion(deps, {
      id,
      question: question.query,
      options: resolveOptions(options, deps.retrieval, deps.models),
      ttlSeconds: 86400,
    })
    for (;;) {
      // The event wakes us at once; the timeout covers one that was missed.
      await Promise.race([signal, new Promise((resolve) => setTimeout(resolve, 2000))])
      const record = await readQuestion(deps.pool, id)
      if (record && isFinished(record.status)) return record
    }
  } finally {
    await unsubscribe()
  }
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
