import { describe, expect, it } from 'vitest'
import { answerKindOf, isAnswerKindTerm } from './answer-kind.ts'
import { bigramCounts } from './bigram-counts.ts'
import {
  analyzeQuery,
  type PassageEvidence,
  type RelevanceStatistics,
  scorePassages,
} from './passage-relevance.ts'
import { analyzeText } from './tokenize.ts'

const BM25 = { k1: 0.9, b: 0.75 }

/** Passages as keyword search hands them to scoring, each its own parent, with made-up document frequencies. */
function score(question: string, texts: Record<string, string>) {
  const query = analyzeQuery(question)
  const analysed = Object.entries(texts).map(([id, text]) => ({ id, text, ...analyzeText(text) }))
  const df = (terms: string[]) =>
    new Map(
      terms.map((term) => [term, analysed.filter((a) => [...a.words, ...a.bigrams].includes(term)).length]),
    )
  const stats: RelevanceStatistics = {
    chunks: 100,
    averageWords: 20,
    averageBigrams: 30,
    averageParentWords: 20,
    wordDf: df(query.words),
    bigramDf: df(query.bigrams),
  }
  const passages: PassageEvidence[] = analysed.map((a) => ({
    id: a.id,
    words: a.words,
    bigramTf: bigramCounts(a.text, query.bigrams),
    bigramCount: a.bigrams.length,
    parentTf: query.words.map((word) => a.words.filter((w) => w === word).length),
    parentWords: a.words.length,
  }))
  return scorePassages(query, stats, passages, BM25).map((hit) => hit.id)
}

describe('scorePassages', () => {
  it("prefers the passage where the question's words stand together over one that scatters them", () => {
    const filler = 'the weather was mild and the harvest was plentiful that autumn in the valley towns'
    expect(
      score('Which river flooded the capital city?', {
        // The same words and length: BM25 alone ties them (and the tie goes to this one, by id).
        scattered: `The river ran north. ${filler}. The capital grew. ${filler}. The city flooded later.`,
        together: `${filler}. The river flooded the capital city in the long rainy spring season. ${filler}.`,
      })[0],
    ).toBe('together')
  })

  it('prefers, for a question asking when, the passage with a date beside its words', () => {
    expect(
      score('When did the stadium host the final?', {
        dateless: 'The stadium will host the final after the renovation of its roof.',
        dated: 'The stadium hosted the final in 2016 after the renovation of its roof.',
      })[0],
    ).toBe('dated')
  })
})

describe('the question', () => {
  it('asks for a date or a number when its words say so, in Japanese and English', () => {
    expect(answerKindOf('第一次世界大戦はいつ勃発したか')).toBe('date')
    expect(answerKindOf('What year did the war end?')).toBe('date')
    expect(answerKindOf('ジャンヌは何人兄弟でしたか')).toBe('number')
    expect(answerKindOf('How many teams reached the final?')).toBe('number')
    // 何年 asks which year or how many: a span answers it as a year does.
    expect(answerKindOf('保証期間は何年ですか')).toBe('date')
    expect(isAnswerKindTerm('date', '年間', '2')).toBe(true)
    expect(isAnswerKindTerm('date', '年', '1998')).toBe(true)
    expect(isAnswerKindTerm('date', '年間', 'この')).toBe(false)
    expect(answerKindOf('保証の対象は何ですか')).toBeNull()
  })

  it('is searched by its words in order, its character pairs and its neighbouring words', () => {
    const query = analyzeQuery('保証期間を教えてください')
    expect(query.words).toEqual(['保証', '期間'])
    expect(query.pairs).toEqual([['保証', '期間']])
    expect(query.bigrams).toContain('証期')
    expect(analyzeQuery('How long does the warranty last?').words).toEqual(['warranti', 'last'])
    expect(analyzeQuery('How long is the cable?').kind).toBe('number')
  })
})

it('counts character pairs in the text as the index does, overlapping and width-folded', () => {
  expect(bigramCounts('ああああ、ｶﾀｶﾅのカタ', ['ああ', 'カタ', 'なし'])).toEqual([3, 2, 0])
})
