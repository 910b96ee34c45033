import { normalizeAnswer } from '../answer-match.ts'
import { questionFrame } from '../question-frame.ts'
import { searchedSentences } from '../short-answer.ts'
import { spanCandidates } from '../span-candidates.ts'
import { type SpanFeatures, spanFeatures } from '../span-features.ts'
import { softmax } from '../span-model.ts'
import { isJapanese } from '../span-tokens.ts'
import type { SpanExample } from './squad-examples.ts'

/** One example as the learner sees it: its candidates' features and which candidates are gold. */
export interface PreparedExample {
  features: SpanFeatures[]
  gold: boolean[]
}

const squeeze = (text: string) => normalizeAnswer(text).replace(/\s/g, '')

/**
 * An example's candidates and features over the sentences a span is looked for in (as at answer
 * time); null when no candidate of the gold sentence is the gold answer.
 */
export function prepareExample(example: SpanExample): PreparedExample | null {
  const frame = questionFrame(example.question)
  const golds = new Set(example.answers.map(squeeze))
  const features: SpanFeatures[] = []
  const gold: boolean[] = []
  for (const { index, text, tokens, context } of searchedSentences(frame, example.sentences)) {
    for (const span of spanCandidates(tokens, isJapanese(text))) {
      features.push(spanFeatures(frame, context, span))
      gold.push(
        index === example.answerSentence &&
          golds.has(squeeze(text.slice(tokens[span.first]?.start, tokens[span.last]?.end))),
      )
    }
  }
  return gold.some(Boolean) ? { features, gold } : null
}

export interface FitOptions {
  epochs: number
  learningRate: number
  /** L2 penalty per update, keeping rare features' weights small. */
  l2: number
}

/**
 * Fits the weights by stochastic gradient descent with AdaGrad on the log-likelihood of the gold
 * candidates under the softmax over each sentence's candidates (the SQuAD paper's baseline is
 * the same kind of model). Deterministic: examples are visited in the order given.
 */
export function fitWeights(
  examples: PreparedExample[],
  { epochs, learningRate, l2 }: FitOptions = { epochs: 6, learningRate: 0.1, l2: 1e-5 },
): Record<string, number> {
  const weights = new Map<string, number>()
  const squares = new Map<string, number>()
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (const example of examples) {
      const scores = example.features.map((features) => {
        let score = 0
        for (const [name, value] of features) score += (weights.get(name) ?? 0) * value
        return score
      })
      const p = softmax(scores)
      const goldMass = p.reduce((sum, value, i) => sum + (example.gold[i] ? value : 0), 0)
      const gradient = new Map<string, number>()
      example.features.forEach((features, i) => {
        const target = example.gold[i] ? (p[i] ?? 0) / goldMass : 0
        const delta = (p[i] ?? 0) - target
        if (Math.abs(delta) < 1e-6) return
        for (const [name, value] of features) gradient.set(name, (gradient.get(name) ?? 0) + delta * value)
      })
      for (const [name, g] of gradient) {
        const w = weights.get(name) ?? 0
        const step = g + l2 * w
        const square = (squares.get(name) ?? 0) + step * step
        squares.set(name, square)
        weights.set(name, w - (learningRate * step) / Math.sqrt(square + 1e-8))
      }
    }
  }
  return Object.fromEntries(
    [...weights]
      .filter(([, w]) => Math.abs(w) >= 1e-3)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, w]) => [name, Math.round(w * 1000) / 1000]),
  )
}
