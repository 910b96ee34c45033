import { randomUUID } from 'node:crypto'
import { createTestDatabase, type TestDatabase } from '@rag/db/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { QuestionOutcome } from './question-outcomes.ts'
import type { EvaluationReport } from './report.ts'
import { finishRun, listRuns, readRun, runQuestions, startRun } from './run-store.ts'
import type { ConfigResult } from './score-config.ts'

// A kept run is read a page at a time, however many questions it holds; a run whose process died
// is said failed, not "running" forever.
let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase('run_store')
})
afterAll(() => db?.drop())

const outcome = (i: number): QuestionOutcome => ({
  id: `q${i}`,
  query: `question ${i}`,
  subtype: null,
  answerable: i % 10 !== 0,
  gold: i % 10 !== 0 ? ['doc.txt'] : [],
  // Every 7th answerable one found the wrong document first.
  firstRelevantRank: i % 7 === 0 ? 2 : 1,
  expectedSource: null,
  sourceRank: null,
  sources: [{ rank: 1, sourceId: 'doc.txt:L1', document: 'doc.txt', score: 0.9 }],
  refused: i % 10 === 0,
  answer: i % 10 === 0 ? null : 'an answer',
  answerability: null,
  status: 'done',
  degraded: [],
  timings: { totalMs: 40 + (i % 50) },
})

function report(questions: QuestionOutcome[]): EvaluationReport {
  const config = {
    name: 'keyword',
    scale: 'evidence',
    metrics: { accuracy: 0.9 },
    sweep: [],
    best: null,
    degraded: [],
    failures: [],
    options: {},
    fingerprint: '',
    questions,
  } satisfies ConfigResult
  return {
    dataset: { name: 'big', format: 'questions', documents: 1, questions: questions.length, answerable: 0 },
    fingerprint: '',
    settings: {
      chunkSize: 500,
      chunkOverlap: 100,
      parentMaxChars: 2000,
      topK: 20,
      searchK: 50,
      rerankTopK: 5,
      reranker: null,
      llm: null,
      embedding: null,
      refusalThreshold: 0.5,
      rerankRefusalThreshold: 0.2,
    },
    ingest: { seconds: 0, failed: [], reused: true },
    configs: [config],
  }
}

describe('kept evaluation runs', () => {
  it('keep 50,000 questions apart from the report and read them a page at a time', async () => {
    const id = randomUUID()
    const questions = Array.from({ length: 50_000 }, (_, i) => outcome(i))
    await startRun(db.pool, { id, collection: 'hr', dataset: 'big', total: 50_000, startedBy: 'test' })
    await finishRun(db.pool, id, report(questions))
    const run = await readRun(db.pool, id)
    expect(run).toMatchObject({ status: 'done', done: 50_000, total: 50_000 })
    // The report read for the view holds no question: its size does not grow with the set.
    expect(JSON.stringify(run?.report).length).toBeLessThan(2000)
    const last = await runQuestions(db.pool, id, {
      config: 'keyword',
      offset: 49_990,
      limit: 50,
      wrongOnly: false,
    })
    expect(last.total).toBe(50_000)
    expect(last.questions.map((q) => q.id)).toEqual(Array.from({ length: 10 }, (_, i) => `q${49_990 + i}`))
    const wrong = await runQuestions(db.pool, id, { config: 'keyword', offset: 0, limit: 3, wrongOnly: true })
    const expectedWrong = questions.filter((q) => q.answerable && q.firstRelevantRank !== 1)
    expect(wrong.total).toBe(expectedWrong.length)
    expect(wrong.questions.map((q) => q.id)).toEqual(expectedWrong.slice(0, 3).map((q) => q.id))
    expect(wrong.questions.every((q) => q.correct === false)).toBe(true)
  })

  it('say how many questions a run holds on a page past its end', async () => {
    const id = randomUUID()
    const questions = Array.from({ length: 12 }, (_, i) => outcome(i + 1))
    await startRun(db.pool, { id, collection: 'hr', dataset: 'small', total: 12, startedBy: 'test' })
    await finishRun(db.pool, id, report(questions))
    const wrongOnly = { config: 'keyword', offset: 50, limit: 10, wrongOnly: true }
    expect(await runQuestions(db.pool, id, wrongOnly)).toEqual({ questions: [], total: 1 })
    expect(await runQuestions(db.pool, id, { ...wrongOnly, wrongOnly: false })).toEqual({
      questions: [],
      total: 12,
    })
  })

  it('say a run whose process stopped failed, with why', async () => {
    const id = randomUUID()
    await startRun(db.pool, {
      id,
      collection: 'sales',
      dataset: 'collection sales',
      total: 3,
      startedBy: 'test',
    })
    expect((await readRun(db.pool, id))?.status).toBe('running')
    await db.pool.query(
      `UPDATE evaluation_runs SET updated_at = now() - interval '11 minutes' WHERE id = $1`,
      [id],
    )
    const [run] = await listRuns(db.pool, { collections: ['sales'], limit: 5 })
    expect(run).toMatchObject({ id, status: 'failed', error: expect.stringMatching(/stopped.*run it again/) })
  })
})
