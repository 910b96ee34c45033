import type { QuestionRecord } from '@rag/questions'
import { describe, expect, it } from 'vitest'
import { isOtherSection, isRight, scoreConfig } from './score-config.ts'

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

describe('the failures a run lists', () => {
  it('include an answerable question refused, saying when its expected passage came first', () => {
    const question = { id: 'q1', query: '有給休暇は何日ですか', gold: { 'leave.txt': 1 }, keywords: [] }
    const record = {
      id: 'r1',
      question: question.query,
      refused: true,
      answer: null,
      answerability: null,
      sources: [{ rank: 1, sourceId: 'leave.txt:L1', documentId: 'd1', score: 0.2 }],
      citations: [],
      status: 'done',
      degraded: [],
      timings: {},
    } as unknown as QuestionRecord
    const result = scoreConfig('keyword', [question], [record], new Map([['d1', 'leave.txt']]), {
      threshold: 0.5,
      scale: 'evidence',
      thresholds: { refusalThreshold: 0.5, rerankRefusalThreshold: 0.5 },
    })
    expect(result.failures).toEqual([
      expect.objectContaining({
        question: '有給休暇は何日ですか',
        got: ['leave.txt:L1'],
        why: expect.stringMatching(/^refused \(answerability .*\) with the expected passage first$/),
      }),
    ])
  })
})
