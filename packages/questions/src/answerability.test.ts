import { answerabilitySignals, type CandidatePassage } from '@rag/retrieval'
import { describe, expect, it } from 'vitest'
import { type AnswerabilityExample, answerProbability, fitAnswerability } from './answerability-model.ts'

// A question about one article: its topic words (フォートナイト, 開発) are in every paragraph of it,
// the words of what is asked (売上, 2019) only in the paragraph that answers.
const idf = new Map([
  ['フォートナイト', 6],
  ['開発', 1],
  ['売上', 3],
  ['2019', 3],
])
const answering: CandidatePassage = {
  id: 'answering',
  terms: ['フォートナイト', 'の', '2019', '年', 'の', '売上', 'は', '18', '億', 'ドル'],
}
const neighbour = (id: string): CandidatePassage => ({
  id,
  terms: ['フォートナイト', 'は', 'epic', 'が', '開発', 'し', 'た', 'ゲーム', 'で', 'ある'],
})
const question = 'フォートナイトの2019年の売上はいくら？'

const signals = (candidates: CandidatePassage[]) =>
  answerabilitySignals(question, idf, new Map(), candidates).signals

// A small training set built the same way: the answer in the corpus, or only its neighbours.
function fixture(): AnswerabilityExample[] {
  const examples: AnswerabilityExample[] = []
  for (let i = 0; i < 20; i++) {
    examples.push({ signals: signals([answering, neighbour(`a${i}`), neighbour(`b${i}`)]), answerable: true })
    examples.push({
      signals: signals([neighbour(`c${i}`), neighbour(`d${i}`), neighbour(`e${i}`)]),
      answerable: false,
    })
  }
  return examples
}

describe('the answerability judgement', () => {
  it('refuses a neighbouring paragraph that word overlap alone would answer from', () => {
    const onlyNeighbours = signals([neighbour('x'), neighbour('y'), neighbour('z')])
    // Half the question's weight is its topic: over the 0.45 evidence threshold of before.
    expect(onlyNeighbours.evidence).toBeGreaterThan(0.45)
    const model = { ...fitAnswerability(fixture()), fittedOn: {} }
    expect(answerProbability(onlyNeighbours, model)).toBeLessThan(0.5)
    // Fitted so that 0.5 refuses at most 5% of the answerable questions: these are answered.
    expect(
      answerProbability(signals([answering, neighbour('x'), neighbour('y')]), model),
    ).toBeGreaterThanOrEqual(0.5)
  })

  it('reads what only the best passage holds, and the kind of answer asked for near it', () => {
    const withAnswer = signals([answering, neighbour('x')])
    const without = signals([neighbour('x'), neighbour('y')])
    expect(withAnswer.distinctive).toBeGreaterThan(without.distinctive)
    expect(withAnswer.asksKind).toBe(1)
    expect(withAnswer.kindNear).toBeGreaterThan(without.kindNear)
  })
})

describe('a passage that decides a yes/no or "other than" question', () => {
  const faq: CandidatePassage = {
    id: 'payment',
    terms: ['支払い', '方法', 'クレジット', 'カード'],
    text: '支払い方法はクレジットカードのみです。',
  }
  const words = new Map([
    ['クレジット', 3],
    ['カード', 3],
    ['以外', 2],
    ['支払い', 2],
    ['方法', 1],
    ['追加', 2],
  ])
  const limitOf = (question: string, passage: CandidatePassage) =>
    answerabilitySignals(question, words, new Map(), [passage]).signals.limit

  it('is read from the raw text, whose のみ / only the analyser drops', () => {
    expect(limitOf('クレジットカード以外の支払い方法を追加できますか', faq)).toBe(1)
    expect(
      limitOf('Can I pay by bank transfer?', { ...faq, text: 'We only accept payment by credit card.' }),
    ).toBe(1)
    // Not a yes/no question, or a passage that limits nothing: no signal.
    expect(limitOf('支払い方法は何がありますか', faq)).toBe(0)
    expect(
      limitOf('クレジットカード以外の支払い方法を追加できますか', { ...faq, text: '支払い方法を選べます。' }),
    ).toBe(0)
  })
})
