import type { AnswerabilitySignals } from '@rag/retrieval'
import { describe, expect, it } from 'vitest'
import { answerProbability } from '../answerability-model.ts'
import { crossValidatedFit } from './calibration-report.ts'

const signals = (evidence: number, lead: number): AnswerabilitySignals => ({
  evidence,
  lead,
  distinctive: evidence,
  phrase: 0,
  rarest: 1,
  unseen: 0,
  asksKind: 0,
  kindNear: 0,
  limit: 0,
  asksTyped: 0,
  typedSpan: 0,
})

describe("a collection's calibration", () => {
  // An FAQ team's questions: answered rows lead their neighbours clearly; the questions the FAQ
  // does not answer still cover half their words (the product name is everywhere).
  const examples = [
    ...Array.from({ length: 20 }, (_, i) => ({
      signals: signals(0.55 + (i % 5) * 0.05, 0.3 + (i % 4) * 0.05),
      answerable: true,
    })),
    ...Array.from({ length: 20 }, (_, i) => ({
      signals: signals(0.5 + (i % 5) * 0.05, (i % 3) * 0.02),
      answerable: false,
    })),
  ]

  it('flips a boundary question the shipped judgement answers, and reports held-out figures before and after', () => {
    const boundary = signals(0.7, 0.02)
    expect(answerProbability(boundary)).toBeGreaterThanOrEqual(0.5)
    const { model, report } = crossValidatedFit(examples, 0.5)
    expect(answerProbability(boundary, { ...model, fittedOn: {} })).toBeLessThan(0.5)
    expect(report).toMatchObject({ questions: 40, answerable: 20, unanswerable: 20, folds: 5 })
    expect(report.after.accuracy).toBeGreaterThan(report.before.accuracy)
    expect(report.after.refusedUnanswerable).toBeGreaterThan(0.8)
  })

  it('reports what held-out questions show, not what it was fitted on: labels that are noise give no gain', () => {
    const noise = examples.map((example, i) => ({ ...example, answerable: (i * 7) % 3 === 0 }))
    const { report } = crossValidatedFit(noise, 0.5)
    expect(report.after.accuracy).toBeLessThan(0.75)
  })
})
