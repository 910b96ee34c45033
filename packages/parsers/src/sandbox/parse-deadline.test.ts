import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { parseDeadline } from './parse-deadline.ts'

// The clock is vitest's: the mechanism is tested, not the machine's speed.
beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('parseDeadline', () => {
  it('expires a parse that makes no progress for the timeout', () => {
    const onExpire = vi.fn()
    parseDeadline({ timeoutMs: 6_000, budgets: 10, onExpire })
    vi.advanceTimersByTime(5_999)
    expect(onExpire).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(onExpire).toHaveBeenCalledOnce()
  })

  it('starts again at each page read, so a long scan outlasts one timeout', () => {
    const onExpire = vi.fn()
    const deadline = parseDeadline({ timeoutMs: 6_000, budgets: 10, onExpire })
    for (let page = 0; page < 4; page++) {
      vi.advanceTimersByTime(5_000)
      deadline.progressed()
    }
    // 20 s in, well past one timeout, and still running.
    expect(onExpire).not.toHaveBeenCalled()
    vi.advanceTimersByTime(6_000)
    expect(onExpire).toHaveBeenCalledOnce()
  })

  it('never runs past its budgets in all, however often pages are read', () => {
    const onExpire = vi.fn()
    const deadline = parseDeadline({ timeoutMs: 6_000, budgets: 2, onExpire })
    for (let second = 0; second < 11; second++) {
      vi.advanceTimersByTime(1_000)
      deadline.progressed()
    }
    expect(onExpire).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1_000)
    expect(onExpire).toHaveBeenCalledOnce()
  })

  it('stops its clock while the caller holds a batch, and goes on from where it stopped', () => {
    const onExpire = vi.fn()
    const deadline = parseDeadline({ timeoutMs: 6_000, budgets: 10, onExpire })
    vi.advanceTimersByTime(4_000)
    deadline.pause()
    // The pipeline takes minutes to store the batch: not the parser's time.
    vi.advanceTimersByTime(600_000)
    expect(onExpire).not.toHaveBeenCalled()
    deadline.resume()
    vi.advanceTimersByTime(1_999)
    expect(onExpire).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(onExpire).toHaveBeenCalledOnce()
  })

  it('stays quiet once cleared', () => {
    const onExpire = vi.fn()
    parseDeadline({ timeoutMs: 1_000, budgets: 1, onExpire }).clear()
    vi.advanceTimersByTime(10_000)
    expect(onExpire).not.toHaveBeenCalled()
  })
})
