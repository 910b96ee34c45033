import { describe, expect, it } from 'vitest'
import { parsePriority, REINDEX_ALL_PRIORITY } from './register-document.ts'

// BullMQ runs the lower number first.
describe('the order documents are parsed in', () => {
  it('puts smaller uploads first, and every upload, of any size, before a re-index of everything', () => {
    expect(parsePriority(2_000)).toBeLessThan(parsePriority(20_000_000))
    expect(parsePriority(2 ** 50)).toBeLessThan(REINDEX_ALL_PRIORITY)
    // Within what BullMQ accepts as a priority.
    expect(REINDEX_ALL_PRIORITY).toBeLessThanOrEqual(2 ** 21)
  })
})
