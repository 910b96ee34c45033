import { type AnswerType, answerTypeOf } from './answer-type.ts'
import { choicesOf } from './choice-question.ts'
import { type Polarity, polarityOf } from './polarity.ts'
import { type QuestionFrame, questionFrame } from './question-frame.ts'
import { withoutQuestionWordEdges } from './question-word-edges.ts'
import { spanCandidates } from './span-candidates.ts'
import { overlapOf, sentenceContext, spanFeatures } from './span-features.ts'
import { type SpanModel, scoreOf, shippedSpanModel, softmax } from './span-model.ts'
import { isJapanese, spanTokens } from './span-tokens.ts'
import { tidySpan } from './tidy-span.ts'
import { typedCore } from './typed-core.ts'
import { holdsType, wholeExpression } from './whole-expression.ts'

export interface ShortAnswer {
  /** The span as written in the sentence: 「約35万人」, "9:30 to 17:00", 「徳川家康」; 「はい」/"No" for yes/no. */
  text: string
  /** How sure the model is of it among the candidates (0–1). */
  probability: number
  /** Which of the sentences given it stands in. */
  sentence: number
  /** The kind of answer the question asks for, which the span is. */
  type: AnswerType
  /** For a yes/no question: what its sentence says (no text is given when it decides nothing). */
  polarity?: Polarity
}

/** Question kinds whose answer is a clause (a reason, a way), which no noun phrase holds. */
const CLAUSE_ANSWERS = new Set<AnswerType>(['reason', 'method'])
/** Question kinds whose answer is a value of a kind a pattern knows (a date, a number). */
const TYPED_ANSWERS = new Set<AnswerType>(['date', 'number', 'money'])
/**
 * How much less sure a span of the kind asked may be than the model's threshold: over the gold
 * paragraphs of the dev sets, a third gave F1 +0.015 (SQuAD) and +0.005 (JaQuAD) with the cut to
 * the value; a sixth a little more, taken as too bold for an answer shown as the answer.
 */
const TYPED_THRESHOLD_DIVISOR = 3
/** Spans after the first the model ranks above its threshold, looked at when the first is of the wrong kind. */
const SPANS_CONSIDERED = 5

/**
 * A yes/no question answered by the sentence that says most of it (polarity.ts): はい/Yes or
 * いいえ/No when it decides the question, nothing when it does not, and "not stated" when it says
 * the thing is not stated (the question is then unanswerable).
 */
function yesNo(frame: QuestionFrame, question: string, sentences: string[]): ShortAnswer | null {
  const top = searchedSentences(frame, sentences)[0]
  if (!top) return null
  const polarity = polarityOf(question, top.text)
  if (polarity === 'yes' || polarity === 'no') {
    const text = frame.japanese ? (polarity === 'yes' ? 'はい' : 'いいえ') : polarity === 'yes' ? 'Yes' : 'No'
    return { text, probability: 1, sentence: top.index, type: 'yesno', polarity }
  }
  if (polarity === 'not-stated')
    return { text: '', probability: 1, sentence: top.index, type: 'yesno', polarity }
  return null
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

/** Whether a span says only what the question already says (the treaty it names, not the country it asks). */
export function onlyQuestionWords(span: string, frame: QuestionFrame): boolean {
  const content = spanTokens(span).filter((token) => token.content)
  return content.length > 0 && content.every((token) => frame.words.has(token.key))
}

/**
 * The short answer a sentence (or a passage's sentences) gives a question — the best span the
 * model is sure enough of (its threshold) that is of the kind asked (a date for when, a number for
 * how many), says more than the question's own words, and is quoted whole (its unit, the other end
 * of its range, the URL it stands in) — or null: the sentence alone answers. A yes/no question
 * gets はい/いいえ only when its sentence decides it (polarity.ts).
 */
export function shortAnswerIn(
  question: string,
  sentences: string | string[],
  model: SpanModel = shippedSpanModel(),
): ShortAnswer | null {
  const frame = questionFrame(question)
  const type = answerTypeOf(question, frame)
  const given = [sentences].flat()
  if (type === 'yesno') return yesNo(frame, question, given)
  if (CLAUSE_ANSWERS.has(type)) return null
  const ranked = rankSpans(frame, given, model)
  const choice = chosenAlternative(choicesOf(question), ranked, given)
  if (choice) return { ...choice, type }
  // A day or a time asked (いつ, 何月何日), not a year alone (何年): the date is quoted whole.
  const fullDate = type === 'date' && !/何年(?!.*何月)|what year|which year/i.test(question)
  // A date or number asked: the spans holding one are looked at (a value of the kind asked is
  // itself evidence, so a less sure one is taken), each cut to that value (wholeExpression then
  // adds back its unit and range).
  const typed = TYPED_ANSWERS.has(type)
  const considered = typed ? ranked.filter((span) => holdsType(span.text, type)) : ranked
  const floor = typed ? model.threshold / TYPED_THRESHOLD_DIVISOR : model.threshold
  for (const span of considered.slice(0, SPANS_CONSIDERED)) {
    if (span.probability < floor) break
    if (!holdsType(span.text, type) || onlyQuestionWords(span.text, frame)) continue
    const sentence = given[span.sentence] ?? ''
    const own = withoutQuestionWordEdges(typedCore(span.text, type), frame)
    const whole = tidySpan(wholeExpression(sentence, own, type, { fullDate, question }), type)
    if (!whole || onlyQuestionWords(whole, frame)) continue
    return { ...span, text: whole, type }
  }
  return null
}

/**
 * The alternative the sentences pick, for a question asking which of several (AとBのどちら): the
 * one the spans most like the model best for stand in, when one of them is in the sentences at all.
 */
function chosenAlternative(choices: string[], ranked: RankedSpan[], sentences: string[]) {
  if (choices.length < 2) return null
  let best: { text: string; probability: number; sentence: number } | null = null
  for (const choice of choices) {
    const key = choice.toLowerCase()
    const span = ranked.find((candidate) => {
      const text = candidate.text.toLowerCase()
      return text.includes(key) || (text.length > 1 && key.includes(text))
    })
    if (!span || !(sentences[span.sentence] ?? '').toLowerCase().includes(key)) continue
    if (!best || span.probability > best.probability)
      best = { text: choice, probability: span.probability, sentence: span.sentence }
  }
  return best
}
