import { describe, expect, it } from 'vitest'
import { finishReasonOf } from './chat-answer.ts'

describe('finishReasonOf', () => {
  it('is length when the answer stopped at the server’s own cap, though the request set none', () => {
    const usage = { promptTokens: 300, completionTokens: 512 }
    expect(finishReasonOf({ options: {} as never, usage: { ...usage, stoppedAtCap: true } })).toBe('length')
    expect(finishReasonOf({ options: {} as never, usage })).toBe('stop')
  })

  it('is length at the request’s max_tokens, and stop for an answer that ended by itself or none', () => {
    const options = { maxTokens: 64 } as never
    expect(finishReasonOf({ options, usage: { promptTokens: 1, completionTokens: 64 } })).toBe('length')
    expect(finishReasonOf({ options, usage: { promptTokens: 1, completionTokens: 20 } })).toBe('stop')
    expect(finishReasonOf({ options, usage: null })).toBe('stop')
  })
})
