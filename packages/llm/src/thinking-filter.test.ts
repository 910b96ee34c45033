import { describe, expect, it } from 'vitest'
import { ThinkingFilter, withoutThinking } from './thinking-filter.ts'

describe('a reasoning model’s thinking', () => {
  it('is left out of the answer, whole', () => {
    expect(
      withoutThinking('<think>\nThe user asks about the warranty…\n</think>\n\n保証期間は2年間です。'),
    ).toBe('保証期間は2年間です。')
    expect(withoutThinking('保証期間は2年間です。')).toBe('保証期間は2年間です。')
  })

  it('is left out as it streams, with tags split over pieces', () => {
    const filter = new ThinkingFilter()
    const pieces = ['<th', 'ink>hmm, the ', 'user wants</thi', 'nk>\n\nThe answer', ' is 2 <b>years</b>.']
    const out = pieces.map((piece) => filter.push(piece)).join('') + filter.end()
    expect(out).toBe('\n\nThe answer is 2 <b>years</b>.')
  })

  it('leaves nothing when the model never stops thinking (an empty answer, to be treated as a failure)', () => {
    expect(withoutThinking('<think>still going')).toBe('')
  })
})
