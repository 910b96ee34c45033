import { readFileSync } from 'node:fs'
import type { SpanFeatures } from './span-features.ts'

/**
 * A log-linear model over a sentence's candidate spans: each candidate's score is the sum of its
 * features' weights, and the scores' softmax says how sure the pick is. Small enough to read.
 */
export interface SpanModel {
  version: 1
  /** What it was fitted on and how well it did on held-out questions (see fit/). */
  fitted: Record<string, string | number>
  /** Below this probability the best span is not sure enough: the sentence alone answers. */
  threshold: number
  weights: Record<string, number>
}

export function scoreOf(model: SpanModel, features: SpanFeatures): number {
  let score = 0
  for (const [name, value] of features) score += (model.weights[name] ?? 0) * value
  return score
}

/** Probabilities of candidates from their scores (a softmax, shifted by the best for stability). */
export function softmax(scores: number[]): number[] {
  const top = Math.max(...scores)
  const exps = scores.map((score) => Math.exp(score - top))
  const sum = exps.reduce((a, b) => a + b, 0)
  return exps.map((value) => value / sum)
}

let shipped: SpanModel | undefined

/** The model fitted on JaQuAD train that ships with the platform (span-model.json). */
export function shippedSpanModel(): SpanModel {
  shipped ??= JSON.parse(readFileSync(new URL('./span-model.json', import.meta.url), 'utf8')) as SpanModel
  return shipped
}
