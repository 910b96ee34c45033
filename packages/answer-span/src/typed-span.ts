import { type AnswerType, answerTypeOf } from './answer-type.ts'
import { questionFrame } from './question-frame.ts'
import { sentencesOf } from './sentences.ts'
import { onlyQuestionWords, rankSpans } from './short-answer.ts'
import { type SpanModel, shippedSpanModel } from './span-model.ts'
import { holdsType } from './whole-expression.ts'

/** Kinds of answer a span of a passage can be checked against: a name, a place, a date, a number… */
const TYPED = new Set<AnswerType>(['term', 'person', 'organisation', 'place', 'date', 'number', 'money'])

/**
 * Whether a passage holds an answer of the kind its question asks for: when the question asks a
 * name, a place, a date, a number or an amount (`asks`), the span model's probability of the best
 * span of that kind in the passage's sentences that say most of the question, and that is more
 * than the question's own words (`probability`, 0 when there is none). A sibling paragraph of the
 * right article shares the question's topic words but, without the fact, holds no such span near
 * them: evidence for the answerability judgement that topic coverage alone cannot give.
 */
export function typedSpanEvidence(
  question: string,
  passage: string,
  model: SpanModel = shippedSpanModel(),
): { asks: boolean; probability: number } {
  const frame = questionFrame(question)
  const type = answerTypeOf(question, frame)
  if (!TYPED.has(type)) return { asks: false, probability: 0 }
  const best = rankSpans(frame, sentencesOf(passage), model).find(
    (span) => holdsType(span.text, type) && !onlyQuestionWords(span.text, frame),
  )
  return { asks: true, probability: Math.round((best?.probability ?? 0) * 1000) / 1000 }
}
