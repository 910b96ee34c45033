import { createTestDatabase, type TestDatabase } from '@rag/db/testing'
import { createLogger } from '@rag/log'
import { createProducer, generateJob, type Producer, startWorker } from '@rag/queue'
import { dropPrefix, testRedisUrl, uniquePrefix } from '@rag/queue/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { waitsItsTurn } from './question-line.ts'
import { createQuestion, readQuestion, updateQuestion } from './question-store.ts'
import { failStalledQuestions } from './stalled-questions.ts'

// A question that waited its turn longer than the no-progress limit is not failed the moment its
// turn comes: between a worker taking its job and its handler marking it as moving, a client's
// read (which sweeps stalled questions) used to fail it, and its answer was never written.
let db: TestDatabase
let producer: Producer
let worker: ReturnType<typeof startWorker>
const prefix = uniquePrefix('question-line')
const logger = createLogger({ name: 'test', level: 'silent' })
let taken: (questionId: string) => void = () => undefined
let release: () => void = () => undefined
const held = new Promise<void>((resolve) => {
  release = resolve
})

beforeAll(async () => {
  db = await createTestDatabase('question_line')
  producer = await createProducer({ url: testRedisUrl(), prefix })
  // The LLM worker, held inside its handler before it touches the question.
  worker = startWorker({
    definition: generateJob,
    redisUrl: testRedisUrl(),
    prefix,
    logger,
    handler: async ({ questionId }) => {
      taken(questionId)
      await held
    },
  })
})
afterAll(async () => {
  release()
  await worker?.close()
  await producer?.close()
  await dropPrefix(testRedisUrl(), prefix)
  await db?.drop()
})

const options = {
  topK: 3,
  mode: 'keyword' as const,
  fusion: false,
  rerank: false,
  answer: 'generate' as const,
  parents: true,
}

/** A question handed to the LLM an hour ago, whose job the worker has just taken. */
async function questionJustTaken(): Promise<string> {
  const id = crypto.randomUUID()
  await createQuestion(db.pool, { id, question: 'q', options, ttlSeconds: 3600 })
  await updateQuestion(db.pool, id, 'generating', {})
  const started = new Promise<void>((resolve) => {
    taken = (questionId) => questionId === id && resolve()
  })
  await producer.enqueue(generateJob, { questionId: id, task: 'answer' })
  await started
  await db.pool.query("UPDATE questions SET updated_at = now() - interval '1 hour' WHERE id = $1", [id])
  return id
}

describe('the no-progress limit and a question whose turn has just come', () => {
  it('leaves a question whose job a worker took up within the limit, and fails one taken up longer ago', async () => {
    const id = await questionJustTaken()
    const inLine = (question: Parameters<typeof waitsItsTurn>[1], limit: number) =>
      waitsItsTurn({ pool: db.pool, producer }, question, limit)
    expect(await failStalledQuestions(db.pool, 60, id, inLine)).toEqual([])
    expect((await readQuestion(db.pool, id))?.status).toBe('generating')
    // A limit of nothing: the worker has had its time and the question did not move.
    expect(await failStalledQuestions(db.pool, 0, id, inLine)).toEqual([id])
    expect((await readQuestion(db.pool, id))?.error).toMatch(/no progress for 0 s while generating/)
  })
})
