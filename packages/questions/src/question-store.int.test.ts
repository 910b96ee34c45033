import { createTestDatabase, type TestDatabase } from '@rag/db/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createQuestion, deleteExpiredQuestions, readQuestion, updateQuestion } from './question-store.ts'
import { failStalledQuestions } from './stalled-questions.ts'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase('question_store')
})
afterAll(() => db?.drop())

const options = {
  topK: 3,
  mode: 'keyword' as const,
  fusion: false,
  rerank: false,
  answer: 'extractive' as const,
  parents: true,
}
const newQuestion = async (ttlSeconds = 3600) => {
  const id = crypto.randomUUID()
  await createQuestion(db.pool, { id, question: 'q', options, ttlSeconds })
  return id
}

describe('the question record', () => {
  it('cannot be reopened once done: a retried stage changes nothing', async () => {
    const id = await newQuestion()
    const retrieving = await updateQuestion(db.pool, id, 'retrieving', {
      timings: { retrieveMs: 5 },
      degraded: ['vector'],
    })
    expect(retrieving?.previousStatus).toBe('queued')
    expect(retrieving?.question.status).toBe('retrieving')
    const done = await updateQuestion(db.pool, id, 'done', {
      answer: 'a',
      refused: false,
      degraded: ['rerank', 'vector'],
    })
    expect(done?.previousStatus).toBe('retrieving')
    expect(await updateQuestion(db.pool, id, 'generating')).toBeNull()
    const question = await readQuestion(db.pool, id)
    expect(question?.status).toBe('done')
    expect(question?.answer).toBe('a')
    expect(question?.degraded).toEqual(['rerank', 'vector'])
    expect(question?.timings.retrieveMs).toBe(5)
    expect(question?.timings.totalMs).toBeGreaterThanOrEqual(0)
  })

  it('fails a question stuck in a stage, naming the stage, and leaves moving ones alone', async () => {
    const stuck = await newQuestion()
    const moving = await newQuestion()
    await updateQuestion(db.pool, stuck, 'generating')
    await updateQuestion(db.pool, moving, 'generating')
    await db.pool.query(`UPDATE questions SET updated_at = now() - interval '10 minutes' WHERE id = $1`, [
      stuck,
    ])
    const other = await newQuestion()
    await db.pool.query(`UPDATE questions SET updated_at = now() - interval '10 minutes' WHERE id = $1`, [
      other,
    ])
    // A client looking at one question fails only that one; the gateway's sweep takes the rest.
    expect(await failStalledQuestions(db.pool, 60, stuck)).toEqual([stuck])
    expect(await failStalledQuestions(db.pool, 60)).toEqual([other])
    const failed = await readQuestion(db.pool, stuck)
    expect(failed?.status).toBe('failed')
    expect(failed?.error).toMatch(/no progress for 60 s while generating \(is the LLM worker running\?\)/)
    expect((await readQuestion(db.pool, moving))?.status).toBe('generating')
  })

  it('is gone after its retention time', async () => {
    const id = await newQuestion(60)
    await db.pool.query(`UPDATE questions SET expires_at = now() - interval '1 second' WHERE id = $1`, [id])
    expect(await readQuestion(db.pool, id)).toBeNull()
    expect(await deleteExpiredQuestions(db.pool)).toBeGreaterThanOrEqual(1)
    const { rows } = await db.pool.query('SELECT 1 FROM questions WHERE id = $1', [id])
    expect(rows).toEqual([])
  })
})
