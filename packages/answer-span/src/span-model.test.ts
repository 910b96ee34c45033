import { describe, expect, it } from 'vitest'
import { parseSpanModel, shippedSpanModel } from './span-model.ts'

describe('the span model', () => {
  it('ships with every weight a span needs', () => {
    expect(shippedSpanModel().weights.near).toEqual(expect.any(Number))
  })

  it('is refused at load, naming what is wrong, when a dense weight or the threshold is missing', () => {
    const { near: _near, ...weights } = shippedSpanModel().weights
    expect(() => parseSpanModel({ ...shippedSpanModel(), weights }, 'model.json')).toThrow(
      /model\.json is not a span model: weights\.near: missing/,
    )
    expect(() => parseSpanModel({ version: 1, fitted: {}, weights: {} }, 'x.json')).toThrow(/threshold/)
  })
})
