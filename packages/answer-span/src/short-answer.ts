import { type QuestionFrame, questionFrame } from './question-frame.ts'
import { spanCandidates } from './span-candidates.ts'
import { sentenceContext, spanFeatures } from './span-features.ts'
import { type SpanModel, scoreOf, shippedSpanModel, softmax } from './span-model.ts'
import { isJapanese, spanTokens } from './span-tokens.ts'

export interface ShortAnswer {
  /** The span as written in the sentence: 「3年」, "1603", 「徳川家康」; 「はい」/"No" for yes/no. */
  text: string
  /** How sure the model is of it among the sentence's candidates (0–1). */
  probability: number
}

/** Question kinds whose answer is a clause (a reason, a way), which no noun phrase holds. */
const CLAUSE_ANSWERS = new Set(['reason', 'method'])
const NEGATED = /ない|ません|ず[、。]?|なかった|not\b|n't\b|\bnever\b|\bno\b/i

/**
 * A yes/no question answered by its sentence: yes when the sentence says it as asked (both
 * negated or neither), no when one of them is negated.
 */
function yesNo(frame: QuestionFrame, sentence: string): ShortAnswer | null {
  const polarity = NEGATED.test(sentence) === frame.negated
  if (frame.japanese) return { text: polarity ? 'はい' : 'いいえ', probability: 1 }
  return { text: polarity ? 'Yes' : 'No', probability: 1 }
}

/** Every candidate span of a sentence with its probability, best first. */
export function rankSpans(
  question: string | QuestionFrame,
  sentence: string,
  model: SpanModel = shippedSpanModel(),
): { text: string; probability: number; first: number; last: number }[] {
  const frame = typeof question === 'string' ? questionFrame(question) : question
  const tokens = spanTokens(sentence)
  const candidates = spanCandidates(tokens, isJapanese(sentence))
  if (candidates.length === 0) return []
  const context = sentenceContext(tokens, frame)
  const probabilities = softmax(candidates.map((span) => scoreOf(model, spanFeatures(frame, context, span))))
  return candidates
    .map((span, i) => ({
      text: sentence.slice(tokens[span.first]?.start ?? 0, tokens[span.last]?.end ?? 0),
      probability: probabilities[i] ?? 0,
      first: span.first,
      last: span.last,
    }))
    .sort((a, b) => b.probability - a.probability)
}

/**
 * The short answer a sentence gives a question — the span the model ranks first, when it is sure
 * enough (the model's threshold) — or null, and the sentence alone answers.
 */
export function shortAnswerIn(
  question: string,
  sentence: string,
  model: SpanModel = shippedSpanModel(),
): ShortAnswer | null {
  const frame = questionFrame(question)
  if (frame.type === 'yesno') return yesNo(frame, sentence)
  if (CLAUSE_ANSWERS.has(frame.type)) return null
  const best = rankSpans(frame, sentence, model)[0]
  if (!best || best.probability < model.threshold) return null
  return { text: best.text, probability: best.probability }
}
