import { describe, expect, it } from 'vitest'
import { followUpQuery } from './follow-up-query.ts'

const turn = (question: string, searchQuery: string | null = null) => ({ question, searchQuery, answer: '…' })

describe('followUpQuery', () => {
  it('carries the naming words of the turn before into a question that points back', () => {
    expect(followUpQuery('それは延長できますか', [turn('保証期間は何年ですか')])).toBe(
      '保証 期間 それは延長できますか',
    )
    expect(followUpQuery('Can I extend it?', [turn('What is the return policy?')])).toBe(
      'return policy Can I extend it?',
    )
  })

  it('builds on the turn before as it was searched, so a chain of follow-ups keeps its subject', () => {
    expect(
      followUpQuery('その費用は？', [
        turn('保証期間は何年ですか'),
        turn('それは延長できますか', '保証 期間 それは延長できますか'),
      ]),
    ).toBe('保証 期間 延長 その費用は？')
  })

  it('leaves a question that stands on its own, and the first question of a thread, as they are', () => {
    expect(followUpQuery('充電にかかる時間とバッテリーの持ちを教えて', [turn('保証期間は何年ですか')])).toBe(
      '充電にかかる時間とバッテリーの持ちを教えて',
    )
    expect(followUpQuery('それは延長できますか', [])).toBe('それは延長できますか')
  })
})
