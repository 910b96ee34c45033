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

/**
 * What is wrong with a model's features against the signals computed today, or null: a weight
 * naming a signal nobody computes (renamed, removed) would count for nothing, and a signal with
 * no weight would be ignored — either way the judgement would quietly change.
 */
export function answerabilityModelProblem(
  model: Pick<AnswerabilityModel, 'features' | 'weights'>,
): string | null {
  const known = new Set<string>(SIGNAL_NAMES)
  const unknown = model.features.filter((name) => !known.has(name))
  const missing = SIGNAL_NAMES.filter((name) => !model.features.includes(name))
  if (unknown.length > 0) return `weights for signals that are not computed: ${unknown.join(', ')}`
  if (missing.length > 0) return `no weight for the signals ${missing.join(', ')}`
  if (model.weights.length !== model.features.length)
    return `${model.weights.length} weights for ${model.features.length} features`
  return null
}

/** The model as loaded, refused (at load, naming the mismatch) when it does not fit the signals. */
export function checkedAnswerabilityModel<T extends Pick<AnswerabilityModel, 'features' | 'weights'>>(
  model: T,
  origin: string,
): T {
  const problem = answerabilityModelProblem(model)
  if (problem) throw new Error(`${origin}: ${problem}; refit it (docs/evaluation.md)`)
  return model
}

export const ANSWERABILITY_MODEL: AnswerabilityModel = checkedAnswerabilityModel(
  fitted,
  'answerability-model.json',
)

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

/** Signals named as what decided, at most: a reader takes in two or three reasons, not nine. */
const MAX_DECIDING = 3
/** A signal moving the judgement less than this (in log-odds) is not named as a reason. */
const MIN_PUSH = 0.25
/**
 * Signals that say something only in some questions: asking for a date or number and a stated
 * limit only when there (their absence is no reason), nearness to a date or number only when one
 * is asked for.
 */
const APPLIES: Record<string, (signals: Record<string, number>) => boolean> = {
  asksKind: (signals) => (signals.asksKind ?? 0) > 0,
  kindNear: (signals) => (signals.asksKind ?? 0) > 0,
  limit: (signals) => (signals.limit ?? 0) > 0,
  asksTyped: (signals) => (signals.asksTyped ?? 0) > 0,
  typedSpan: (signals) => (signals.asksTyped ?? 0) > 0,
}

/**
 * The signals that weighed most toward `answer` (true) or toward refusing (false), strongest
 * first: each signal's part in the judgement's log-odds against its other extreme — toward an
 * answer, what the judgement would lose were the signal at its worst; toward a refusal, what it
 * would gain were the signal at its best. What a refusal (or an answer) is explained by.
 */
export function decidingSignals(
  signals: AnswerabilitySignals,
  answer: boolean,
  model: AnswerabilityModel = ANSWERABILITY_MODEL,
): string[] {
  const x = featuresOf(signals, model.features)
  const named = signals as unknown as Record<string, number>
  return model.features
    .map((name, i) => {
      if (APPLIES[name] && !APPLIES[name](named)) return { name, push: 0 }
      const weight = model.weights[i] ?? 0
      const value = x[i] ?? 0
      // The value that helps an answer most: 1 for a positive weight, 0 for a negative one.
      const best = weight >= 0 ? 1 : 0
      const push = answer
        ? Math.abs(weight) * Math.abs(value - (1 - best))
        : Math.abs(weight) * Math.abs(best - value)
      return { name, push }
    })
    .filter((signal) => signal.push >= MIN_PUSH)
    .sort((a, b) => b.push - a.push)
    .slice(0, MAX_DECIDING)
    .map((signal) => signal.name)
}

export interface AnswerabilityExample {
  signals: AnswerabilitySignals
  /** The corpus holds the answer. */
  answerable: boolean
  /** The training set it comes from: each set weighs the same, whatever its size. */
  set?: string
}

/** The share of answerable questions any one training set may see refused at the operating point. */
export const FALSE_REFUSAL_BUDGET = 0.05

/**
 * Logistic regression by gradient descent (a handful of features, thousands of examples: a
 * second), with a small L2 penalty so a rare signal cannot take an extreme weight. Each training
 * set, and each class within it, weighs the same whatever its count (a 60-question FAQ set counts
 * as much as 1,200 reading-comprehension questions). Then the operating point: the bias is moved
 * so that probability 0.5 (REFUSAL_THRESHOLD's default) is the highest threshold that refuses at
 * most FALSE_REFUSAL_BUDGET of any set's answerable questions.
 */
export function fitAnswerability(
  examples: AnswerabilityExample[],
  { epochs = 4000, rate = 1, l2 = 1e-3 } = {},
): Pick<AnswerabilityModel, 'features' | 'weights' | 'bias'> {
  const features = [...SIGNAL_NAMES]
  const rows = examples.map((example) => featuresOf(example.signals, features))
  const labels = examples.map((example) => (example.answerable ? 1 : 0))
  const groupOf = (example: AnswerabilityExample) => `${example.set ?? ''}\u0000${example.answerable}`
  const counts = new Map<string, number>()
  for (const example of examples) counts.set(groupOf(example), (counts.get(groupOf(example)) ?? 0) + 1)
  const weightOf = examples.map(
    (example) => examples.length / (counts.size * (counts.get(groupOf(example)) ?? 1)),
  )
  const weights = features.map(() => 0)
  let bias = 0
  for (let epoch = 0; epoch < epochs; epoch++) {
    const gradient = features.map(() => 0)
    let biasGradient = 0
    rows.forEach((x, n) => {
      const label = labels[n] as number
      const error =
        (sigmoid(x.reduce((sum, value, i) => sum + value * (weights[i] as number), bias)) - label) *
        (weightOf[n] as number)
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
  const rounded = { features, weights: weights.map((w) => Math.round(w * 1000) / 1000), bias }
  const score = (x: number[]) => x.reduce((sum, value, i) => sum + value * (rounded.weights[i] ?? 0), bias)
  const cut = operatingPoint(
    examples.map((example, n) => ({
      set: example.set ?? '',
      answerable: example.answerable,
      z: score(rows[n] ?? []),
    })),
  )
  return { ...rounded, bias: Math.round((bias - cut) * 1000) / 1000 }
}

/**
 * The highest score threshold under which at most FALSE_REFUSAL_BUDGET of each set's answerable
 * questions fall (scores in logits, so the bias can absorb it).
 */
function operatingPoint(scored: { set: string; answerable: boolean; z: number }[]): number {
  let cut = Number.POSITIVE_INFINITY
  for (const set of new Set(scored.map((item) => item.set))) {
    const answerable = scored
      .filter((item) => item.set === set && item.answerable)
      .map((item) => item.z)
      .sort((a, b) => a - b)
    if (answerable.length === 0) continue
    // Refusing below the k-th lowest refuses k of them: k may be floor(budget × n).
    const k = Math.floor(FALSE_REFUSAL_BUDGET * answerable.length)
    cut = Math.min(cut, answerable[k] as number)
  }
  return Number.isFinite(cut) ? cut : 0
}
