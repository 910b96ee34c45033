import { readFileSync } from 'node:fs'
import { z } from 'zod'
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

/**
 * Features every span has (span-features.ts sets them whatever the span): a model without a weight
 * for one was fitted on other features than these and would score every span wrongly.
 */
const DENSE_FEATURES = ['near', 'before-left', 'after-right', 'before-right', 'after-left', 'position']

const spanModelSchema = z
  .object({
    version: z.literal(1),
    fitted: z.record(z.string(), z.union([z.string(), z.number()])),
    threshold: z.number().gt(0).lt(1),
    weights: z.record(z.string(), z.number().finite()),
  })
  .superRefine((model, context) => {
    for (const name of DENSE_FEATURES)
      if (!(name in model.weights))
        context.addIssue({ code: 'custom', path: ['weights', name], message: 'missing: every span has it' })
  })

/** A span model read from JSON, checked: its version, threshold and every dense feature's weight. */
export function parseSpanModel(json: unknown, where: string): SpanModel {
  const parsed = spanModelSchema.safeParse(json)
  if (!parsed.success)
    throw new Error(
      `${where} is not a span model: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    )
  return parsed.data
}

/**
 * A span's score: the sum of its features' weights. The indicator features are open-ended (the
 * particle after a span, `next:で`): one the fitting never saw has no weight, which in a
 * log-linear model is a weight of 0, not a missing value; the dense ones are checked at load.
 */
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
  const file = new URL('./span-model.json', import.meta.url)
  shipped ??= parseSpanModel(JSON.parse(readFileSync(file, 'utf8')), file.pathname)
  return shipped
}
