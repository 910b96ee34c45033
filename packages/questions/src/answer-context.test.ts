import { describe, expect, it } from 'vitest'
import { selectContext } from './answer-context.ts'
import type { QuestionSource } from './question-store.ts'

// One token per character: the budget is easy to reason about.
const countTokens = (text: string) => [...text].length
const source = (rank: number, sourceId: string, parentText: string, text = parentText): QuestionSource => ({
  rank,
  sourceId,
  documentId: '00000000-0000-4000-8000-000000000000',
  title: sourceId.split(':')[0] ?? '',
  score: 0.9,
  retrievalScore: 1,
  text,
  parentText,
  heading: null,
  chunkId: String(rank),
})
const guide = source(
  1,
  'guide.pdf:p5',
  [
    '本製品をお買い上げいただきありがとうございます。',
    'ご使用の前にこの取扱説明書をよくお読みください。',
    '保証期間はお買い上げ日から2年間です。',
    '保証書は大切に保管してください。',
    '修理の際は販売店にご相談ください。',
    'お手入れには柔らかい布をお使いください。',
  ].join(''),
)
const faq = source(
  2,
  'faq.csv:r2',
  'question: アームの角度は変えられますか\nanswer: はい、3段階に調整できます。',
)
const idf = new Map([
  ['保証', 2],
  ['期間', 2],
])

describe('selectContext', () => {
  it('reads the sentence that holds the question first, then its neighbours, within the budget', () => {
    const context = selectContext({
      question: '保証期間は何年ですか',
      sources: [guide],
      idf,
      budget: 70,
      countTokens,
      parents: true,
    })
    const [passage] = context.passages
    expect(passage?.excerpt).toContain('保証期間はお買い上げ日から2年間です。')
    // Its neighbours come next, as far as the budget goes; the far sentences are left out.
    expect(passage?.excerpt).toContain('保証書は大切に保管してください。')
    expect(passage?.excerpt).not.toContain('お手入れには')
    expect(context.tokens).toBeLessThanOrEqual(70)
  })

  it("reaches the next passage's best unit before the top passage's weakest, and marks what was left out", () => {
    const context = selectContext({
      question: '保証期間は何年ですか',
      sources: [guide, faq],
      idf,
      budget: 160,
      countTokens,
      parents: true,
    })
    expect(context.passages.map((p) => p.source.sourceId)).toEqual(['guide.pdf:p5', 'faq.csv:r2'])
    expect(context.passages[0]?.excerpt).not.toContain('お手入れには')
    expect(context.passages[0]?.excerpt).toMatch(/^… /)
    // A short row is read whole: its question cell with its answer cell.
    expect(context.passages[1]?.excerpt).toBe(
      'question: アームの角度は変えられますか\nanswer: はい、3段階に調整できます。',
    )
  })

  it('cuts the top passage to the budget when even its best sentence is larger', () => {
    const context = selectContext({
      question: '保証期間は何年ですか',
      sources: [guide],
      idf,
      budget: 30,
      countTokens,
      parents: true,
    })
    expect(context.passages).toHaveLength(1)
    expect(context.tokens).toBeLessThanOrEqual(30)
    expect(context.passages[0]?.excerpt).toMatch(/^… 保証期間は/)
  })
})
