import { SIGNAL_NAMES } from '@rag/retrieval'
import { describe, expect, it } from 'vitest'
import {
  ANSWERABILITY_MODEL,
  answerabilityModelProblem,
  checkedAnswerabilityModel,
} from './answerability-model.ts'

describe('the answerability model as loaded', () => {
  it('names every signal computed today, and only those (the shipped one included)', () => {
    expect(answerabilityModelProblem(ANSWERABILITY_MODEL)).toBeNull()
  })

  it('refuses weights for a signal that is not computed (a renamed one would count for nothing)', () => {
    const renamed = {
      features: [...SIGNAL_NAMES.slice(1), 'oldEvidence'],
      weights: SIGNAL_NAMES.map(() => 1),
    }
    expect(() => checkedAnswerabilityModel(renamed, 'model.json')).toThrow(
      /model\.json: weights for signals that are not computed: oldEvidence/,
    )
  })

  it('refuses a model with no weight for a signal that is computed', () => {
    const short = { features: SIGNAL_NAMES.slice(1), weights: SIGNAL_NAMES.slice(1).map(() => 1) }
    expect(answerabilityModelProblem(short)).toBe(`no weight for the signals ${SIGNAL_NAMES[0]}`)
  })

  it('refuses weights that do not line up with their features', () => {
    expect(answerabilityModelProblem({ features: [...SIGNAL_NAMES], weights: [1] })).toMatch(/1 weights for/)
  })
})
