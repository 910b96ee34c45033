import type { ApiEvaluationQuestionsPage, ApiEvaluationRunDetail } from '@rag/api-contract'
import { describe, expect, it } from 'vitest'
import { collectionsGatewayOfFile } from '../testing/collections-gateway.ts'

const world = collectionsGatewayOfFile(
  'evaluation-runs',
  [
    { filename: 'leave.txt', text: '有給休暇は年に二十日です。', collection: 'hr' },
    { filename: 'remote.txt', text: '在宅勤務の申請は前日までに上長へ行います。', collection: 'hr' },
  ],
  [
    ['hr-editor', 'editor', ['hr']],
    ['sales-editor', 'editor', ['sales']],
    ['hr-reader', 'reader', ['hr']],
  ],
)
const { call, keys, adminKey: ADMIN } = world

async function finished(key: string, id: string): Promise<ApiEvaluationRunDetail> {
  for (let wait = 20; ; wait = Math.min(wait * 1.5, 300)) {
    const { body } = await call(key, 'GET', `/evaluations/${id}`)
    if (body.status !== 'running') return body as unknown as ApiEvaluationRunDetail
    await new Promise((resolve) => setTimeout(resolve, wait))
  }
}

describe('evaluation runs from the web app', () => {
  it("runs a collection's cases with the platform's workers, kept with its report and every question", async () => {
    const editor = keys['hr-editor'] as string
    // No cases yet: nothing to run, and it says how to make some.
    const none = await call(editor, 'POST', '/collections/hr/evaluations')
    expect(none.status).toBe(409)
    expect(JSON.stringify(none.body)).toContain('no evaluation cases')

    const { pool } = world.gateway.fixture.db
    for (const [question, source] of [
      ['有給休暇は何日ですか', 'leave.txt:L1'],
      ['在宅勤務の申請はいつまでですか', 'leave.txt:L1'], // a wrong expectation: the case fails
      ['社員食堂の営業時間は？', null],
    ] as const)
      await pool.query(
        `INSERT INTO evaluation_cases (id, collection, question, expected_source, created_by)
         VALUES (gen_random_uuid(), 'hr', $1, $2, 'reviewer')`,
        [question, source],
      )
    const started = await call(editor, 'POST', '/collections/hr/evaluations')
    expect(started.status).toBe(202)
    expect(started.body).toMatchObject({
      collection: 'hr',
      status: 'running',
      total: 3,
      startedBy: 'hr-editor',
    })
    const run = await finished(editor, started.body.id as string)
    expect(run.status).toBe('done')
    const config = run.report?.configs[0]
    expect(config?.name).toBe('as configured')
    expect(config?.metrics['source@1']).toBeCloseTo(0.5)
    expect(config?.metrics.noAnswerAccuracy).toBe(1)
    expect(config?.sweep.length).toBeGreaterThan(0)

    const wrong = (
      await call(editor, 'GET', `/evaluations/${run.id}/questions?config=as%20configured&wrong=true`)
    ).body as unknown as ApiEvaluationQuestionsPage
    expect(wrong.total).toBe(1)
    expect(wrong.questions[0]).toMatchObject({ query: '在宅勤務の申請はいつまでですか', correct: false })
    const paged = (
      await call(editor, 'GET', `/evaluations/${run.id}/questions?config=as%20configured&limit=2`)
    ).body as unknown as ApiEvaluationQuestionsPage
    expect(paged.questions).toHaveLength(2)
    expect(paged.next).toBe(
      `/evaluations/${run.id}/questions?config=as+configured&offset=2&limit=2&wrong=false`,
    )

    const listed = (await call(editor, 'GET', '/evaluations')).body.runs as { id: string }[]
    expect(listed.map((r) => r.id)).toEqual([run.id])
  })

  it('keeps runs to the editors of their collection', async () => {
    const [run] = (await call(ADMIN, 'GET', '/evaluations?collection=hr')).body.runs as { id: string }[]
    expect(run).toBeDefined()
    expect((await call(keys['sales-editor'] as string, 'GET', `/evaluations/${run?.id}`)).status).toBe(404)
    expect((await call(keys['sales-editor'] as string, 'GET', '/evaluations')).body.runs).toEqual([])
    expect((await call(keys['sales-editor'] as string, 'POST', '/collections/hr/evaluations')).status).toBe(
      404,
    )
    expect((await call(keys['hr-reader'] as string, 'GET', '/evaluations')).status).toBe(403)
    expect((await call(ADMIN, 'GET', '/evaluations/00000000-0000-4000-8000-000000000000')).status).toBe(404)
    expect((await call(ADMIN, 'GET', `/evaluations/${run?.id}/questions`)).status).toBe(400)
  })
})
