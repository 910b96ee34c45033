import { describe, expect, it } from 'vitest'
import { answerDeclines } from './answer-declines.ts'
import { citationsOf, normalizeCitationMarkers } from './citations.ts'
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

describe('what real models write', () => {
  it('full-width and lenticular citation markers, lists and ranges are read and made plain', () => {
    const answer = '保証期間は2年間です［１］。延長保証もあります【2】。詳しくは[1、3]と[2-3]を参照。'
    expect(citationsOf(answer, sources).map((c) => c.marker)).toEqual([1, 2, 3])
    expect(normalizeCitationMarkers(answer)).toBe(
      '保証期間は2年間です[1]。延長保証もあります[2]。詳しくは[1, 3]と[2-3]を参照。',
    )
  })

  it('rephrasings: headers dropped, every common list style cleaned, in both languages', () => {
    const japanese = [
      '以下は言い換えです：',
      '① 保証の期間はどのくらいですか',
      '**2.** 何年間保証されますか',
      '3: 保証が続く年数を教えて',
    ].join('\n')
    expect(parseRephrasings(japanese, '保証期間は何年ですか', 3)).toEqual([
      '保証の期間はどのくらいですか',
      '何年間保証されますか',
      '保証が続く年数を教えて',
    ])
    const english = [
      'Sure! Here are 3 rephrasings of your question:',
      '',
      '1) How long does the warranty last?',
      '- "What is the warranty period?"',
      'Q3: For how many years is the product covered?',
    ].join('\n')
    expect(parseRephrasings(english, 'How many years is the warranty?', 3)).toEqual([
      'How long does the warranty last?',
      'What is the warranty period?',
      'For how many years is the product covered?',
    ])
  })

  it('an answer that declines is told apart from one that answers', () => {
    expect(answerDeclines('資料には記載がありません。')).toBe(true)
    expect(answerDeclines('提供された情報には、その点についての記載がありません。')).toBe(true)
    expect(answerDeclines('The documents do not say.')).toBe(true)
    expect(answerDeclines("I couldn't find that in the provided passages.")).toBe(true)
    expect(answerDeclines('保証期間は2年間です[1]。')).toBe(false)
    expect(
      answerDeclines(
        'The warranty lasts two years [1]; the documents do not say whether it can be extended beyond that, but repairs under warranty are free of charge at any service center [2].',
      ),
    ).toBe(false)
  })
})
