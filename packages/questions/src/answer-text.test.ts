import { describe, expect, it } from 'vitest'
import { citationsOf } from './citations.ts'
import { parseRephrasings } from './fusion-prompt.ts'
import { languageOf } from './language.ts'
import type { QuestionSource } from './question-store.ts'

const sources = [1, 2, 3].map((rank) => ({ rank, sourceId: `doc.pdf:p${rank}` }) as QuestionSource)

describe('citationsOf', () => {
  it('maps [n] markers to the passages given, once each, in order of use', () => {
    expect(citationsOf('保証は2年です [2]。充電は3時間 [1][2]。', sources)).toEqual([
      { marker: 2, sourceId: 'doc.pdf:p2' },
      { marker: 1, sourceId: 'doc.pdf:p1' },
    ])
    expect(citationsOf('Both say so [1, 3].', sources).map((c) => c.marker)).toEqual([1, 3])
  })

  it('ignores markers that name no passage', () => {
    expect(citationsOf('See [7] and [0].', sources)).toEqual([])
    expect(citationsOf('No citation at all.', sources)).toEqual([])
  })
})

describe('parseRephrasings', () => {
  it('keeps one query per line without list markers, quotes or repeats, at most count', () => {
    const text =
      '1. 保証は何年間ですか\n2) 「保証期間の長さ」\n- 保証期間は何年ですか\n・保証の期限\n\n5. 余分な行'
    expect(parseRephrasings(text, '保証期間は何年ですか', 3)).toEqual([
      '保証は何年間ですか',
      '保証期間の長さ',
      '保証の期限',
    ])
  })
})

describe('languageOf', () => {
  it('answers in Japanese when the question has kana or kanji', () => {
    expect(languageOf('LEDの寿命は？')).toBe('ja')
    expect(languageOf('保証')).toBe('ja')
    expect(languageOf('What is the return policy?')).toBe('en')
    expect(languageOf('E-34')).toBe('en')
  })
})
