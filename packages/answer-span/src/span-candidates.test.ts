import { describe, expect, it } from 'vitest'
import { spanCandidates } from './span-candidates.ts'
import { spanTokens } from './span-tokens.ts'

function candidateTexts(sentence: string, japanese: boolean): string[] {
  const tokens = spanTokens(sentence)
  return spanCandidates(tokens, japanese).map((span) =>
    sentence.slice(tokens[span.first]?.start, tokens[span.last]?.end),
  )
}

describe('spanCandidates', () => {
  it('keeps a number with its counter, a name held by ・, a title in quotes and 〜の〜 phrases', () => {
    const texts = candidateTexts(
      '1947年、フランツ・カフカは『変身』を書き、タンネンベルクの戦いに触れた。',
      true,
    )
    expect(texts).toEqual(
      expect.arrayContaining([
        '1947年',
        'フランツ・カフカ',
        '変身',
        'タンネンベルクの戦い',
        'タンネンベルク',
      ]),
    )
    // A span never starts with a counter or ends with a joining symbol.
    expect(texts).not.toContain('年')
    expect(texts).not.toContain('フランツ・')
  })

  it('keeps English names with their joining words but never starts or ends on one', () => {
    const texts = candidateTexts('He studied at the University of Tokyo in 1998.', false)
    expect(texts).toEqual(expect.arrayContaining(['University of Tokyo', '1998']))
    expect(texts).not.toContain('of Tokyo')
    expect(texts).not.toContain('University of')
  })

  it('never makes an English verb or adverb part of a span (compromise reads the sentence)', () => {
    const texts = candidateTexts(
      'The Broncos practiced at Stanford University and stayed at the Santa Clara Marriott.',
      false,
    )
    expect(texts).toEqual(expect.arrayContaining(['Broncos', 'Stanford University', 'Santa Clara Marriott']))
    expect(texts.filter((text) => /practiced|stayed/.test(text))).toEqual([])
    expect(candidateTexts('Oxygen is often transported as a liquid.', false)).not.toContain(
      'often transported',
    )
  })
})
