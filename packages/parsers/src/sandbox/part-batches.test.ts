import { describe, expect, it } from 'vitest'
import { batchIsFull } from './part-batches.ts'

describe('what a part holds', () => {
  it('is SECTIONS_PER_PART pages of a document with pages of text', () => {
    expect(batchIsFull(49, 49 * 2000, 50)).toBe(false)
    expect(batchIsFull(50, 50 * 2000, 50)).toBe(true)
  })

  it('takes more of small sections (a CSV’s rows) until they fill it, within a bound', () => {
    expect(batchIsFull(50, 50 * 80, 50)).toBe(false)
    expect(batchIsFull(400, 400 * 80, 50)).toBe(true)
    // Empty rows: still bounded.
    expect(batchIsFull(999, 0, 50)).toBe(false)
    expect(batchIsFull(1000, 0, 50)).toBe(true)
  })
})
