import { randomUUID } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { createCollection } from '@rag/access'
import { evalConfig } from '@rag/config'
import { type EvaluationReport, listRuns, readRun, runQuestions } from '@rag/evaluation'
import { type IngestionFixture, ingestFiles, startIngestionFixture } from '@rag/ingest/testing'
import { createLogger } from '@rag/log'
import { listEvaluationCases, saveEvaluationCase } from '@rag/questions'
import { dropPrefix, uniquePrefix } from '@rag/queue/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type EvalArgs, runEvalCommand } from './eval-command.ts'

// A team's own evaluation set, grown from feedback, run against its live collection: nothing is
// ingested for it, the run is kept for the web app's Evaluation view and written as one HTML file.
const logger = createLogger({ name: 'test', level: 'silent' })
const prefix = uniquePrefix('eval-collection')
let fixture: IngestionFixture
let scratch: string

const CASES = [
  { question: '有給休暇は何日ですか', expectedSource: 'leave.txt:L1' },
  { question: '在宅勤務の申請はいつまでですか', expectedSource: 'remote.txt:L1' },
  { question: '社員食堂の営業時間は？', expectedSource: null },
]

beforeAll(async () => {
  fixture = await startIngestionFixture('eval-collection')
  scratch = await mkdtemp(join(tmpdir(), 'rag-eval-collection-'))
  await ingestFiles(fixture, join(scratch, 'uploads'), [
    { filename: 'leave.txt', data: new TextEncoder().encode('有給休暇は年に二十日です。'), collection: 'hr' },
    {
      filename: 'remote.txt',
      data: new TextEncoder().encode('在宅勤務の申請は前日までに上長へ行います。'),
      collection: 'hr',
    },
  ])
  for (const entry of CASES)
    await saveEvaluationCase(fixture.db.pool, {
      id: randomUUID(),
      collection: 'hr',
      ...entry,
      feedbackId: null,
      createdBy: 'reviewer',
    })
})
afterAll(async () => {
  await fixture?.close()
  await dropPrefix(fixture?.redisUrl ?? '', `${prefix}-eval`)
  await rm(scratch, { recursive: true, force: true })
})

async function run(args: Partial<EvalArgs>) {
  const lines: string[] = []
  const output = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n'))
      done()
    },
  })
  const config = evalConfig.parse({
    DATABASE_URL: fixture.db.url,
    DB_SCHEMA: fixture.db.schema,
    REDIS_URL: fixture.redisUrl,
    QUEUE_PREFIX: prefix,
    DATA_DIR: scratch,
    EMBEDDING_MODEL: 'none',
    RERANKER_MODEL: 'none',
    LLM_MODEL: 'none',
    LOG_LEVEL: 'silent',
  })
  const code = await runEvalCommand(
    { format: 'auto', configs: 'keyword', out: join(scratch, 'out'), maxDrop: 0.02, ...args },
    config,
    { output, logger, progress: () => undefined },
  )
  return { code, text: lines.join('\n') }
}

describe('pnpm eval --collection', () => {
  it("runs the collection's cases against it as it is, keeps the run and writes it as one HTML file", async () => {
    const html = join(scratch, 'report.html')
    const { code, text } = await run({ collection: 'hr', save: true, html })
    expect(text).toContain('collection hr: 3 cases over 2 documents')
    expect(code, text).toBe(0)
    const report = JSON.parse(await readFile(join(scratch, 'out/report.json'), 'utf8')) as EvaluationReport
    expect(report.configs[0]?.metrics).toMatchObject({
      'source@1': 1,
      noAnswerAccuracy: 1,
      falseRefusalRate: 0,
    })

    const [saved] = await listRuns(fixture.db.pool, { collections: ['hr'], limit: 10 })
    expect(saved).toMatchObject({ collection: 'hr', status: 'done', total: 3, done: 3 })
    const detail = await readRun(fixture.db.pool, saved?.id ?? '')
    expect(detail?.report?.configs[0]?.sweep.length).toBeGreaterThan(0)
    expect(detail?.report?.configs[0]?.histograms?.totalMs?.counts.reduce((a, b) => a + b, 0)).toBe(3)
    const page = await runQuestions(fixture.db.pool, saved?.id ?? '', {
      config: 'keyword',
      offset: 0,
      limit: 2,
      wrongOnly: false,
    })
    expect(page.total).toBe(3)
    // In the set's order (cases made in the same instant are ordered by id, not by when they were saved).
    const set = await listEvaluationCases(fixture.db.pool, 'hr')
    expect(page.questions.map((q) => q.query)).toEqual(set.slice(0, 2).map((c) => c.question))

    const file = await readFile(html, 'utf8')
    expect(file).toContain('<canvas id="refusal-0">')
    expect(file).toContain('社員食堂の営業時間は？')
    // Self-contained: Chart.js inlined, nothing fetched.
    expect(file).toMatch(/new Chart\(/)
    expect(file).not.toMatch(/<script[^>]+src=/)
  })

  it('says which collections there are for a misspelt one, how to make cases when it has none, and keeps nothing', async () => {
    const misspelt = await run({ collection: 'sails', save: true })
    expect(misspelt.code, misspelt.text).toBe(2)
    expect(misspelt.text).toMatch(/^error: no collection "sails"; the collections: .*\bhr\b/m)
    await createCollection(fixture.db.pool, 'sales')
    const { code, text } = await run({ collection: 'sales', save: true })
    expect(code, text).toBe(2)
    expect(text).toMatch(/error: the collection "sales" has no evaluation cases: make some from feedback/)
    expect(await listRuns(fixture.db.pool, { collections: ['sales'], limit: 10 })).toEqual([])
  })
})
