import { startQuestionWorkers } from '@rag/questions/testing'
import { describe, expect, onTestFinished } from 'vitest'
import { gatewayTest as it, sendJson } from '../testing/gateway-fixtures.ts'
import { keywordOnlySearch } from '../testing.ts'

const send = sendJson

const ANSWERABLE = [
  { question: '海外で使えますか', source: 'faq.csv:r1' },
  { question: 'アームはどこまで動きますか', source: 'faq.csv:r2' },
  { question: '自動で消える機能はありますか', source: 'faq.csv:r3' },
  { question: '保証期間は何年ですか', source: 'lumina-guide.pdf:p5' },
  { question: 'お店の営業時間は', source: 'store-info.html#店舗情報' },
  { question: '保証は何年間ありますか', source: 'lumina-guide.pdf:p5' },
]
const UNANSWERABLE = [
  '今日の天気は',
  '株価を教えて',
  '日本の首都は',
  '充電池は交換できますか',
  '色は何色ありますか',
  '重さは何キロですか',
].map((question) => ({ question, source: null }))

describe("a collection's refusal calibration", () => {
  it('fits on the team questions, reports held-out figures, and judges that collection from then on', async ({
    samples,
  }) => {
    const fitted = await send(samples, 'POST', '/collections/default/calibration', {
      questions: [...ANSWERABLE, ...UNANSWERABLE],
    })
    expect(fitted.status).toBe(200)
    expect(fitted.body.report).toMatchObject({ questions: 12, answerable: 6, unanswerable: 6 })
    const report = fitted.body.report as { before: { accuracy: number }; after: { accuracy: number } }
    expect(report.after.accuracy).toBeGreaterThanOrEqual(0)
    expect((fitted.body.model as { features: string[] }).features).toContain('evidence')

    const workers = startQuestionWorkers({
      ...samples.fixture,
      pool: samples.fixture.db.pool,
      retrieval: keywordOnlySearch.retrieval,
    })
    onTestFinished(() => Promise.all(workers.map((worker) => worker.close())).then(() => undefined))
    const asked = await send(samples, 'POST', '/ask', {
      question: '保証期間は何年ですか',
      options: { mode: 'keyword', answer: 'extractive', collection: 'default' },
    })
    const id = (asked.body as { id: string }).id
    await expect
      .poll(async () => (await send(samples, 'GET', `/ask/${id}`)).body.status, { timeout: 60_000 })
      .toBe('done')
    const answer = (await send(samples, 'GET', `/ask/${id}`)).body
    expect(answer.answerability).toMatchObject({ calibrated: true })

    // Questions that cannot make a judgement change nothing, and say what is missing.
    const cases: [unknown[], RegExp][] = [
      [ANSWERABLE, /0 unanswerable questions/],
      [[...ANSWERABLE.slice(0, 2), ...UNANSWERABLE], /2 answerable questions/],
      [
        [...ANSWERABLE, { question: 'x', source: 'nothing.pdf:p9' }, ...UNANSWERABLE],
        /holds no source "nothing.pdf:p9"/,
      ],
    ]
    for (const [questions, message] of cases) {
      const refused = await send(samples, 'POST', '/collections/default/calibration', { questions })
      expect(refused.status).toBe(400)
      expect((refused.body.error as { message: string }).message).toMatch(message)
    }
    const kept = await send(samples, 'GET', '/collections/default/calibration')
    expect(kept.body.updatedAt).toBe(fitted.body.updatedAt)

    expect((await send(samples, 'DELETE', '/collections/default/calibration')).body).toMatchObject({
      report: null,
    })
  })
})
