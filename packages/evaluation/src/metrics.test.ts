import { describe, expect, it } from 'vitest'
import { keywordFaithfulness, refusalSweep, scoreRanking } from './metrics.ts'
import { withGoldRemoved } from './without-gold.ts'

describe('scoreRanking', () => {
  it('scores hits, reciprocal rank and binary nDCG', () => {
    const scores = scoreRanking(['a', 'b', 'g', 'c'], { g: 1 })
    expect(scores.hit).toEqual({ 1: 0, 3: 1, 5: 1, 10: 1 })
    expect(scores.reciprocalRank).toBeCloseTo(1 / 3)
    expect(scores.ndcg10).toBeCloseTo(1 / Math.log2(4))
    expect(scoreRanking(['x'], { g: 1 }).reciprocalRank).toBe(0)
  })

  it('uses grades as gains and counts recall over every relevant document', () => {
    const scores = scoreRanking(['b', 'a'], { a: 2, b: 1, c: 1 })
    const dcg = 1 + 3 / Math.log2(3)
    const ideal = 3 + 1 / Math.log2(3) + 1 / Math.log2(4)
    expect(scores.ndcg10).toBeCloseTo(dcg / ideal)
    expect(scores.recall[1]).toBeCloseTo(1 / 3)
    expect(scores.recall[3]).toBeCloseTo(2 / 3)
  })
})

describe('refusalSweep', () => {
  it('reports what each threshold does to unanswerable and answerable questions', () => {
    const points = refusalSweep([
      { score: 0.05, answerable: false },
      { score: 0.3, answerable: false },
      { score: 0.6, answerable: true },
      { score: 0.25, answerable: true },
    ])
    const at = (t: number) => points.find((p) => p.threshold === t)
    expect(at(0.1)).toMatchObject({ noAnswerAccuracy: 0.5, falseRefusalRate: 0, accuracy: 0.75 })
    expect(at(0.35)).toMatchObject({ noAnswerAccuracy: 1, falseRefusalRate: 0.5, accuracy: 0.75 })
    expect(at(0.2)?.accuracy).toBe(0.75)
    expect(points).toHaveLength(39)
    expect(points.map((p) => p.threshold).slice(0, 3)).toEqual([0.025, 0.05, 0.075])
  })

  it('counts an answered question right only when a relevant document came first', () => {
    const points = refusalSweep([
      { score: 0.6, answerable: true, relevantFirst: true },
      { score: 0.6, answerable: true, relevantFirst: false },
    ])
    expect(points.find((p) => p.threshold === 0.1)).toMatchObject({ accuracy: 0.5, falseRefusalRate: 0 })
  })
})

describe('keywordFaithfulness', () => {
  it('is the share of expected keywords in the answer', () => {
    expect(keywordFaithfulness('保証期間は2年間です', ['2年間', '保証'])).toEqual({ share: 1, exact: true })
    expect(keywordFaithfulness('Returns within 30 Days', ['30 days', 'receipt'])).toEqual({
      share: 0.5,
      exact: false,
    })
  })
})

describe('a refusal calibration set', () => {
  it('takes the gold documents of about the given share out, making their questions unanswerable', () => {
    const documents = Array.from({ length: 100 }, (_, i) => ({
      docId: `d${i}`,
      filename: `d${i}.txt`,
      data: new Uint8Array(),
    }))
    const questions = documents.map((d, i) => ({
      id: `q${i}`,
      query: 'x',
      gold: { [d.docId]: 1 },
      keywords: [],
    }))
    const calibration = withGoldRemoved({ name: 'set', format: 'qa', documents, questions }, 0.5, 7)
    const unanswerable = calibration.questions.filter((q) => q.gold === null)
    expect(unanswerable.length).toBeGreaterThan(35)
    expect(unanswerable.length).toBeLessThan(65)
    expect(calibration.documents).toHaveLength(100 - unanswerable.length)
    const kept = new Set(calibration.documents.map((d) => d.docId))
    for (const q of calibration.questions) {
      if (q.gold) expect(Object.keys(q.gold).every((docId) => kept.has(docId))).toBe(true)
    }
    expect(withGoldRemoved({ name: 'set', format: 'qa', documents, questions }, 0.5, 7)).toEqual(calibration)
  })

  it('keeps about half the questions answerable when documents have several questions (SQuAD)', () => {
    const documents = Array.from({ length: 100 }, (_, i) => ({
      docId: `d${i}`,
      filename: `d${i}.txt`,
      data: new Uint8Array(),
    }))
    const questions = documents.flatMap((d, i) =>
      Array.from({ length: 5 }, (_, j) => ({
        id: `q${i}-${j}`,
        query: 'x',
        gold: { [d.docId]: 1 },
        keywords: [],
      })),
    )
    const calibration = withGoldRemoved({ name: 'set', format: 'qa', documents, questions }, 0.5, 7)
    const answerable = calibration.questions.filter((q) => q.gold !== null).length
    expect(answerable / questions.length).toBeGreaterThan(0.35)
    expect(answerable / questions.length).toBeLessThan(0.65)
  })
})
