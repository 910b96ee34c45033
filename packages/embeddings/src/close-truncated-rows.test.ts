import { describe, expect, it } from 'vitest'
import { closeTruncatedRows, closingTokenOf } from './close-truncated-rows.ts'

const SEP = 2
const PAD = 1

describe('a passage cut to the window keeps its closing token', () => {
  it('closes rows cut at the last column, and leaves whole and padded rows as they are', () => {
    // [CLS]=0 … [SEP]=2, padding 1: row 0 cut (no closing token), row 1 whole, row 2 padded.
    const ids = new BigInt64Array([0n, 11n, 12n, 13n, 0n, 21n, 22n, 2n, 0n, 31n, 2n, 1n])
    const mask = new BigInt64Array([1n, 1n, 1n, 1n, 1n, 1n, 1n, 1n, 1n, 1n, 1n, 0n])
    const closed = closeTruncatedRows({ data: ids, dims: [3, 4] }, { data: mask, dims: [3, 4] }, SEP)
    expect(closed).toBe(1)
    expect([...ids]).toEqual([0n, 11n, 12n, 2n, 0n, 21n, 22n, 2n, 0n, 31n, 2n, BigInt(PAD)])
  })

  it("finds the closing token from the tokenizer's frame around an empty text", () => {
    expect(closingTokenOf([0, 2])).toBe(2)
    expect(closingTokenOf([101, 102])).toBe(102)
    expect(closingTokenOf([])).toBeUndefined()
    expect(closingTokenOf([1])).toBeUndefined()
  })
})
