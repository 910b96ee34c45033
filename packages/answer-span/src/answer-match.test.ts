import { describe, expect, it } from 'vitest'
import { answerF1, answerTokens, containsGold, exactMatch } from './answer-match.ts'

describe('answer metrics', () => {
  it('exact match is SQuAD’s: equal after normalizing, not "contains"', () => {
    expect(exactMatch('The Denver Broncos.', ['Denver Broncos'])).toBe(true)
    expect(exactMatch('保証期間は3年です。', ['3年'])).toBe(false)
    expect(exactMatch('３年', ['3年'])).toBe(true)
  })

  it('character F1 for Japanese, word F1 for English', () => {
    expect(answerTokens('保証 期間')).toEqual(['保', '証', '期', '間'])
    expect(answerF1('3年です', ['3年'])).toBeCloseTo((2 * (2 / 4) * 1) / (2 / 4 + 1))
    expect(answerF1('the Denver Broncos won', ['Denver Broncos'])).toBeCloseTo(0.8)
    expect(answerF1('nothing alike', ['Denver Broncos'])).toBe(0)
    // A gold without Japanese against a Japanese answer: characters on both sides, not 0.
    expect(answerF1('1997年', ['1997'])).toBeCloseTo((2 * (4 / 5) * 1) / (4 / 5 + 1))
  })

  it('an answer contains the gold when any one of its variants is in it', () => {
    expect(containsGold('保証期間は3年です。', ['三年', '3年'])).toBe(true)
    expect(containsGold('保証期間は3年です。', ['5年'])).toBe(false)
  })
})
