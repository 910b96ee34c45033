import { describe, expect, it } from 'vitest'
import { citationPieces, highlight, queryTerms, quotePieces } from './highlight.ts'

describe('queryTerms', () => {
  it('keeps the content words of a Japanese question and drops particles and endings', () => {
    const terms = queryTerms('保証期間は何年ですか？')
    expect(terms).toEqual(expect.arrayContaining(['保証', '期間']))
    for (const particle of ['は', 'ですか', 'か', '？']) expect(terms).not.toContain(particle)
  })

  it('keeps English content words, lower-cased, without stopwords', () => {
    expect(queryTerms('What is the Warranty period?')).toEqual(['warranty', 'period'])
  })
})

describe('highlight', () => {
  it('marks every occurrence of the terms, longest first, ignoring case', () => {
    expect(highlight('保証期間は2年間です。Warranty: 2 years.', ['保証期間', '保証', 'warranty'])).toEqual([
      { text: '保証期間', match: true },
      { text: 'は2年間です。', match: false },
      { text: 'Warranty', match: true },
      { text: ': 2 years.', match: false },
    ])
  })

  it('joins adjacent terms into one mark', () => {
    expect(highlight('保証期間は2年', ['保証', '期間'])).toEqual([
      { text: '保証期間', match: true },
      { text: 'は2年', match: false },
    ])
  })

  it('leaves text without terms whole, and treats regex characters as text', () => {
    expect(highlight('a (b) c', [])).toEqual([{ text: 'a (b) c', match: false }])
    expect(highlight('a (b) c', ['(b)'])).toEqual([
      { text: 'a ', match: false },
      { text: '(b)', match: true },
      { text: ' c', match: false },
    ])
  })
})

describe('citationPieces', () => {
  it('cuts an answer at its [n] markers', () => {
    expect(citationPieces('2年間です[1]。延長は[2]')).toEqual([
      { text: '2年間です' },
      { marker: 1 },
      { text: '。延長は' },
      { marker: 2 },
    ])
  })
})

describe('quotePieces', () => {
  it('sets off the quoted sentences of a passage and leaves the rest as it is', () => {
    expect(
      quotePieces('保証について。保証期間は2年間です。詳しくは店舗へ。', ['保証期間は2年間です。']),
    ).toEqual([
      { text: '保証について。', match: false },
      { text: '保証期間は2年間です。', match: true },
      { text: '詳しくは店舗へ。', match: false },
    ])
  })

  it('ignores a quote the text does not hold', () => {
    expect(quotePieces('abc', ['xyz', ''])).toEqual([{ text: 'abc', match: false }])
  })
})
