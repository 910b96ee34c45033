import { type QuestionFrame, questionFrame } from './question-frame.ts'
import { spanCandidates } from './span-candidates.ts'
import { overlapOf, sentenceContext, spanFeatures } from './span-features.ts'
import { type SpanModel, scoreOf, shippedSpanModel, softmax } from './span-model.ts'
import { isJapanese, spanTokens } from './span-tokens.ts'

export interface ShortAnswer {
  /** The span as written in the sentence: 「3年」, "1603", 「徳川家康」; 「はい」/"No" for yes/no. */
  text: string
  /** How sure the model is of it among the candidates (0–1). */
  probability: number
  /** Which of the sentences given it stands in. */
  sentence: number
}

/** Question kinds whose answer is a clause (a reason, a way), which no noun phrase holds. */
const CLAUSE_ANSWERS = new Set(['reason', 'method'])
const NEGATED = /ない|ません|ず[、。]?|なかった|not\b|n't\b|\bnever\b|\bno\b/i

/**
 * A yes/no question answered by its sentence: yes when the sentence says it as asked (both
 * negated or neither), no when one of them is negated.
 */
function yesNo(frame: QuestionFrame, sentences: string[]): ShortAnswer | null {
  const top = searchedSentences(frame, sentences)[0]
  if (!top) return null
  const polarity = NEGATED.test(top.text) === frame.negated
  const text = frame.japanese ? (polarity ? 'はい' : 'いいえ') : polarity ? 'Yes' : 'No'
  return { text, probability: 1, sentence: top.index }
}

/** Sentences of a passage a span is looked for in: those saying most of the question. */
export const SENTENCES_SEARCHED = 4

export interface RankedSpan {
  text: string
  probability: number
  /** Which of the sentences given it stands in. */
  sentence: number
}

/**
 * The sentences a span is looked for in (the SENTENCES_SEARCHED saying most of the question),
 * each tokenised with its place among them.
 */
export function searchedSentences(frame: QuestionFrame, sentences: string[]) {
  const analysed = sentences.map((text, index) => {
    const tokens = spanTokens(text)
    return { index, text, tokens, overlap: overlapOf(tokens, frame) }
  })
  return [...analysed]
    .sort((a, b) => b.overlap - a.overlap || a.index - b.index)
    .slice(0, SENTENCES_SEARCHED)
    .map((sentence, rank) => ({ ...sentence, context: sentenceContext(sentence.tokens, frame, rank) }))
}

/** Every candidate span of a passage's sentences (or of one sentence) with its probability, best first. */
export function rankSpans(
  question: string | QuestionFrame,
  sentences: string | string[],
  model: SpanModel = shippedSpanModel(),
): RankedSpan[] {
  const frame = typeof question === 'string' ? questionFrame(question) : question
  const spans: { text: string; sentence: number; score: number }[] = []
  for (const { index, text, tokens, context } of searchedSentences(frame, [sentences].flat())) {
    for (const span of spanCandidates(tokens, isJapanese(text)))
      spans.push({
        text: text.slice(tokens[span.first]?.start ?? 0, tokens[span.last]?.end ?? 0),
        sentence: index,
        score: scoreOf(model, spanFeatures(frame, context, span)),
      })
  }
  if (spans.length === 0) return []
  const probabilities = softmax(spans.map((span) => span.score))
  return spans
    .map(({ text, sentence }, i) => ({ text, sentence, probability: probabilities[i] ?? 0 }))
    .sort((a, b) => b.probability - a.probability)
}

/**
 * The short answer a sentence (or a passage's sentences) gives a question — the span the model
 * ranks first, when it is sure enough (the model's threshold) — or null: the sentence alone answers.
 */
export function shortAnswerIn(
  question: string,
  sentences: string | string[],
  model: SpanModel = shippedSpanModel(),
): ShortAnswer | null {
  const frame = questionFrame(question)
  if (frame.type === 'yesno') return yesNo(frame, [sentences].flat())
  if (CLAUSE_ANSWERS.has(frame.type)) return null
  const best = rankSpans(frame, sentences, model)[0]
  if (!best || best.probability < model.threshold) return null
  return best
}
