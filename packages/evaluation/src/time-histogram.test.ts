import { describe, expect, it } from 'vitest'
import { timeHistogram } from './time-histogram.ts'

describe('timeHistogram', () => {
  it('bins every time, the slowest percent in the last bin', () => {
    const times = [...Array.from({ length: 99 }, (_, i) => 100 + i), 100_000]
    const histogram = timeHistogram(times, 10)
    expect(histogram?.counts.reduce((a, b) => a + b, 0)).toBe(100)
    expect(histogram?.from).toBe(100)
    // The outlier does not stretch the bins: they span the first 99 times.
    expect(histogram?.width).toBeLessThan(11)
    expect(histogram?.counts.at(-1)).toBeGreaterThanOrEqual(1)
  })

  it('is nothing for no times', () => {
    expect(timeHistogram([])).toBeNull()
  })
})
