import { describe, expect, it } from 'vitest'
import { describeFinalFailure, finalFailureOf } from './final-failure.ts'

describe('final failures', () => {
  it("tell BullMQ's stalled job from a handler's error, and say which worker stopped", () => {
    const stalled = finalFailureOf('job stalled more than allowable limit')
    expect(stalled.stalled).toBe(true)
    expect(describeFinalFailure('parse', 'document', stalled)).toBe(
      'parse: the parse worker stopped (crashed, killed or out of memory) each time it worked on this document',
    )
    const broken = finalFailureOf('the PDF is encrypted')
    expect(broken.stalled).toBe(false)
    expect(describeFinalFailure('parse', 'document', broken)).toBe('parse: the PDF is encrypted')
  })
})
