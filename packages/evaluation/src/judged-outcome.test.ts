import { describe, expect, it } from 'vitest'
import { isOtherSection, isRight } from './score-config.ts'

const answered = { answerable: true, refused: false }

describe('a case that names its section', () => {
  it('is right only when that section came first, not another of the same document', () => {
    const sameSection = {
      ...answered,
      expectedSource: 'guide.md#returns',
      sourceRank: 1,
      firstRelevantRank: 1,
    }
    const otherSection = {
      ...answered,
      expectedSource: 'guide.md#returns',
      sourceRank: 3,
      firstRelevantRank: 1,
    }
    expect(isRight(sameSection)).toBe(true)
    expect(isRight(otherSection)).toBe(false)
    expect(isOtherSection(otherSection)).toBe(true)
    expect(isOtherSection(sameSection)).toBe(false)
  })

  it('a case naming only documents is judged by the document, as before', () => {
    const byDocument = { ...answered, expectedSource: null, sourceRank: null, firstRelevantRank: 1 }
    expect(isRight(byDocument)).toBe(true)
    expect(isOtherSection(byDocument)).toBe(false)
    expect(isRight({ ...byDocument, answerable: false, refused: true })).toBe(true)
  })
})
