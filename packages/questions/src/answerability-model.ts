import { type AnswerabilitySignals, SIGNAL_NAMES } from '@rag/retrieval'
import fitted from './answerability-model.json' with { type: 'json' }

/**
 * Whether the documents answer a question, judged from its passages' signals by a logistic
 * regression fitted on questions with and without an answer in the corpus (`pnpm eval
 * --fit-refusal`). Inspectable on purpose: a weight per signal, in answerability-model.json
 * with what it was fitted on.
 */
export interface AnswerabilityModel {
  features: string[]
  weights: number[]
  bias: number
  /** What the weights were fitted on: datasets, question counts and their fingerprint. */
  fittedOn: Record<string, unknown>
}

export const ANSWERABILITY_MODEL: AnswerabilityModel = fitted

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z))

const featuresOf = (signals: AnswerabilitySignals, names: readonly string[]) =>
  names.map((name) => Number((signals as unknown as Record<string, number>)[name] ?? 0))

/** The probability, 0..1, that the passages answer the question. */
export function answerProbability(
  signals: AnswerabilitySignals,
  model: AnswerabilityModel = ANSWERABILITY_MODEL,
): number {
  const x = featuresOf(signals, model.features)
  const z = x.reduce((sum, value, i) => sum + value * (model.weights[i] ?? 0), model.bias)
  return Math.round(sigmoid(z) * 1000) / 1000
}

export interface AnswerabilityExample {
  signals: AnswerabilitySignals
  /** The corpus holds the answer. */
  answerable: boolean
}

/**
 * Logistic regression by gradient descent (a handful of features, thousands of examples: a
 * second), with a small L2 penalty so a rare signal cannot take an extreme weight. Classes are
 * weighed equally whatever their counts.
 */
export function fitAnswerability(
  examples: AnswerabilityExample[],
  { epochs = 4000, rate = 1, l2 = 1e-3 } = {},
): Pick<AnswerabilityModel, 'features' | 'weights' | 'bias'> {
  const features = [...SIGNAL_NAMES]
  const rows = examples.map((example) => featuresOf(example.signals, features))
  const labels = examples.map((example) => (example.answerable ? 1 : 0))
  const positives = labels.filter((label) => label === 1).length
  const balance = (label: number) =>
    examples.length / (2 * Math.max(1, label === 1 ? positives : examples.length - positives))
  const weights = features.map(() => 0)
  let bias = 0
  for (let epoch = 0; epoch < epochs; epoch++) {
    const gradient = features.map(() => 0)
    let biasGradient = 0
    rows.forEach((x, n) => {
      const label = labels[n] as number
      const error =
        (sigmoid(x.reduce((sum, value, i) => sum + value * (weights[i] as number), bias)) - label) *
        balance(label)
      x.forEach((value, i) => {
        gradient[i] = (gradient[i] as number) + error * value
      })
      biasGradient += error
    })
    weights.forEach((weight, i) => {
      weights[i] = weight - rate * ((gradient[i] as number) / rows.length + l2 * weight)
    })
    bias -= (rate * biasGradient) / rows.length
  }
  return {
    features,
    weights: weights.map((w) => Math.round(w * 1000) / 1000),
    bias: Math.round(bias * 1000) / 1000,
  }
}
