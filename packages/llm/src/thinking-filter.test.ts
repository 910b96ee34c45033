import { describe, expect, it } from 'vitest'
import { REASONING_MODEL, ThinkingFilter, UNDECIDED_CHARS, withoutThinking } from './thinking-filter.ts'

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

describe('thinking whose opening tag the template wrote (only </think> comes)', () => {
  it('is left out whole, and as it streams', () => {
    expect(withoutThinking('The user asks about the warranty…\n</think>\n\n保証期間は2年間です。')).toBe(
      '保証期間は2年間です。',
    )
    const filter = new ThinkingFilter({ holdStart: true })
    const pieces = ['Okay, the user ', 'wants the period.', '</thi', 'nk>\n\n保証期間は', '2年間です。']
    const out = pieces.map((piece) => filter.push(piece)).join('') + filter.end()
    expect(out.trimStart()).toBe('保証期間は2年間です。')
    expect(filter.restarts).toBe(0)
  })

  it('does not hold an ordinary answer back for long, and keeps none of it when a late </think> shows it was thinking', () => {
    const filter = new ThinkingFilter({ holdStart: true })
    const long = 'x'.repeat(UNDECIDED_CHARS + 10)
    // Past the limit without a tag: passed on as answer.
    expect(filter.push(long).length).toBeGreaterThan(UNDECIDED_CHARS)
    filter.push(' more</think>\n\n本当の答え。')
    filter.end()
    expect(filter.restarts).toBe(1)
    expect(filter.answer.trimStart()).toBe('本当の答え。')
  })

  it('streams an ordinary model’s answer at once, restarting the kept answer at a stray </think>', () => {
    const filter = new ThinkingFilter()
    expect(filter.push('保証期間は')).toBe('保証期間は')
    filter.push('…</think>2年です。')
    expect(filter.restarts).toBe(1)
    filter.end()
    expect(filter.answer).toBe('2年です。')
    expect(REASONING_MODEL.test('hf:Qwen/Qwen3-4B-GGUF:Q4_K_M')).toBe(true)
    expect(REASONING_MODEL.test('hf:bartowski/Qwen2.5-1.5B-Instruct-GGUF:Q4_K_M')).toBe(false)
  })

  it('leaves rephrasings and rewrites without it', () => {
    expect(withoutThinking('<think>rephrase</think>保証の期間は？')).toBe('保証の期間は？')
    expect(withoutThinking('hmm</think>保証の期間は？')).toBe('保証の期間は？')
  })
})
