import { isQuestionFinished, MAX_FEEDBACK_COMMENT_CHARS } from '@rag/api-contract'
import { describe, expect, it } from 'vitest'
import { collectionsGatewayOfFile } from '../testing/collections-gateway.ts'

const world = collectionsGatewayOfFile(
  'feedback',
  [
    {
      filename: 'leave.txt',
      text: '有給休暇は年に二十日です。申請は一週間前までに行います。',
      collection: 'hr',
    },
  ],
  [
    ['asker', 'reader', ['hr']],
    ['colleague', 'reader', ['hr']],
    ['hr-editor', 'editor', ['hr']],
    ['sales-editor', 'editor', ['sales']],
  ],
)
const { call, keys, adminKey: ADMIN } = world

async function answered(key: string, question: string): Promise<string> {
  const posted = await call(key, 'POST', '/ask', {
    question,
    options: { mode: 'keyword', answer: 'extractive' },
  })
  const id = posted.body.id as string
  for (let wait = 20; ; wait = Math.min(wait * 1.5, 300)) {
    const { body } = await call(key, 'GET', `/ask/${id}`)
    if (isQuestionFinished(body.status as never)) return id
    await new Promise((resolve) => setTimeout(resolve, wait))
  }
}

const list = async (key: string, query = '') =>
  (await call(key, 'GET', `/feedback${query}`)).body.feedback as { verdict: string; question: string }[]

describe('feedback on answers', () => {
  it('is kept with the question, its answer and its sources, for the editors of its collection', async () => {
    const id = await answered(keys.asker as string, '有給休暇は何日ですか')
    const given = await call(keys.asker as string, 'POST', `/ask/${id}/feedback`, {
      verdict: 'down',
      reason: 'incomplete',
      comment: '申請の期限も知りたかった',
    })
    expect(given.status).toBe(201)
    expect(given.body).toMatchObject({
      questionId: id,
      question: '有給休暇は何日ですか',
      sources: ['leave.txt:L1'],
      collections: ['hr'],
      verdict: 'down',
      reason: 'incomplete',
      givenBy: 'asker',
    })
    expect(given.body.answer).toContain('二十日')

    // Said again, it replaces what was said.
    const again = await call(keys.asker as string, 'POST', `/ask/${id}/feedback`, { verdict: 'up' })
    expect(again.status).toBe(201)
    expect(await list(keys['hr-editor'] as string)).toMatchObject([
      { verdict: 'up', question: '有給休暇は何日ですか' },
    ])
    expect(await list(keys['hr-editor'] as string, '?verdict=down')).toEqual([])
    expect(await list(ADMIN, '?collection=hr')).toHaveLength(1)
    // An editor of another collection does not see it; a reader may not review.
    expect(await list(keys['sales-editor'] as string)).toEqual([])
    expect((await call(keys.asker as string, 'GET', '/feedback')).status).toBe(403)
    const audit = (await call(ADMIN, 'GET', '/audit?action=feedback')).body as {
      entries: { collection: string }[]
    }
    expect(audit.entries.map((entry) => entry.collection)).toEqual(['hr', 'hr'])
  })

  it("is 404 on another asker's question and on a made-up one, as if neither existed", async () => {
    const id = await answered(keys.asker as string, '申請はいつまでですか')
    for (const [key, question] of [
      [keys.colleague as string, id],
      [keys.asker as string, '00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const refused = await call(key, 'POST', `/ask/${question}/feedback`, { verdict: 'down' })
      expect(refused.status).toBe(404)
    }
  })

  it('refuses a comment past the limit, and a verdict that is neither up nor down, naming the field', async () => {
    const id = await answered(keys.asker as string, '有給休暇は何日ですか')
    const long = await call(keys.asker as string, 'POST', `/ask/${id}/feedback`, {
      verdict: 'down',
      comment: 'あ'.repeat(MAX_FEEDBACK_COMMENT_CHARS + 1),
    })
    expect(long.status).toBe(400)
    expect(JSON.stringify(long.body)).toContain(`at most ${MAX_FEEDBACK_COMMENT_CHARS} characters`)
    const odd = await call(keys.asker as string, 'POST', `/ask/${id}/feedback`, { verdict: 'meh' })
    expect(odd.status).toBe(400)
    expect(JSON.stringify(odd.body)).toContain('verdict')
  })

  it("becomes a case of its collection's evaluation set in one step, for the editors of that collection", async () => {
    const id = await answered(keys.asker as string, '申請は何日前までですか')
    const given = await call(keys.asker as string, 'POST', `/ask/${id}/feedback`, {
      verdict: 'down',
      reason: 'wrong-source',
    })
    const feedbackId = given.body.id as string
    // Another collection's editor cannot see it, so cannot use it.
    expect(
      (await call(keys['sales-editor'] as string, 'POST', `/feedback/${feedbackId}/case`, { source: null }))
        .status,
    ).toBe(404)
    expect(
      (await call(keys.asker as string, 'POST', `/feedback/${feedbackId}/case`, { source: null })).status,
    ).toBe(403)

    // A source the collection does not hold (misspelt, deleted, another collection's) is refused.
    const unknown = await call(keys['hr-editor'] as string, 'POST', `/feedback/${feedbackId}/case`, {
      source: 'no-such-file.md#x',
    })
    expect(unknown.status).toBe(400)
    expect(JSON.stringify(unknown.body)).toMatch(/holds no passage \\"no-such-file\.md#x\\"/)
    const made = await call(keys['hr-editor'] as string, 'POST', `/feedback/${feedbackId}/case`, {
      source: 'leave.txt:L1',
    })
    expect(made.status).toBe(201)
    expect(made.body).toMatchObject({
      collection: 'hr',
      question: '申請は何日前までですか',
      expectedSource: 'leave.txt:L1',
    })
    // The reviewer changes their mind: the documents do not say. The same question is one case.
    await call(keys['hr-editor'] as string, 'POST', `/feedback/${feedbackId}/case`, { source: null })
    const { body } = await call(keys['hr-editor'] as string, 'GET', '/collections/hr/cases')
    expect(body.cases).toMatchObject([
      { question: '申請は何日前までですか', expectedSource: null, feedbackId },
    ])
    expect((await call(keys['sales-editor'] as string, 'GET', '/collections/hr/cases')).status).toBe(404)

    const caseId = (body.cases as { id: string }[])[0]?.id
    const removed = await world.gateway.app.request(`/collections/hr/cases/${caseId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${keys['hr-editor']}` },
    })
    expect(removed.status).toBe(204)
    expect((await call(keys['hr-editor'] as string, 'GET', '/collections/hr/cases')).body.cases).toEqual([])
  })
})
