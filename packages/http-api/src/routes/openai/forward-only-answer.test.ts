import { describe, expect, it } from 'vitest'
import { ForwardOnlyAnswer } from './forward-only-answer.ts'

describe('an answer relayed forward only', () => {
  it('sends each piece once, and after a restart that repeats it, only what is new', () => {
    const relay = new ForwardOnlyAnswer()
    expect(relay.append('保証期間は')).toBe('保証期間は')
    expect(relay.append('2年')).toBe('2年')
    relay.restart()
    expect(relay.append('保証期間')).toBe('')
    expect(relay.append('は2年間です。')).toBe('間です。')
    expect(relay.finish('保証期間は2年間です。')).toBe('')
    expect(relay.sent).toBe('保証期間は2年間です。')
  })

  it('never splices: a restarted answer that says something else diverges', () => {
    const relay = new ForwardOnlyAnswer()
    expect(relay.append('Once upon a time')).toBe('Once upon a time')
    relay.restart()
    expect(relay.append('Once')).toBe('')
    expect(relay.append(' there was')).toBeNull()
  })

  it('checks the finished answer against what was sent', () => {
    const relay = new ForwardOnlyAnswer()
    relay.append('The warranty')
    expect(relay.finish('Sorry, the documents do not say.')).toBeNull()
    const whole = new ForwardOnlyAnswer()
    expect(whole.finish('An extractive answer, whole.')).toBe('An extractive answer, whole.')
  })
})
