import { shortAnswerLine } from '@rag/api-contract'
import { languageOf, type QuestionRecord } from '@rag/questions'

const SOURCES: Record<'ja' | 'en', string> = { ja: '出典', en: 'Sources' }
const LOOKED_AT: Record<'ja' | 'en', string> = {
  ja: '確認した箇所（答えるには不十分）',
  en: 'Looked at, not enough to answer',
}

/**
 * The passages a refusal looked at, as an extra field (`looked_at`) and as a list after the
 * refusal, marked as not enough: a chat window shows them to open and judge, as the web app does.
 */
export function lookedAtOf(question: QuestionRecord) {
  const passages = question.refused
    ? question.sources.map((s) => ({ marker: s.rank, sourceId: s.sourceId, title: s.title, text: s.text }))
    : []
  const list =
    passages.length > 0
      ? `\n\n${LOOKED_AT[languageOf(question.question)]}:\n${passages.map((p) => `[${p.marker}] ${p.sourceId}`).join('\n')}`
      : ''
  return { passages, list }
}

/** The cited passages, as an extra field and as a list a chat window shows after the answer. */
export function citationsOf(question: QuestionRecord) {
  const cited = question.refused ? [] : question.citations
  const passages = cited.flatMap((citation) => {
    const source = question.sources.find(
      (s) => s.rank === citation.marker && s.sourceId === citation.sourceId,
    )
    return source
      ? [{ marker: citation.marker, sourceId: source.sourceId, title: source.title, text: source.text }]
      : []
  })
  const list =
    passages.length > 0
      ? `\n\n${SOURCES[languageOf(question.question)]}:\n${passages.map((p) => `[${p.marker}] ${p.sourceId}`).join('\n')}`
      : ''
  return { passages, list }
}

/** OpenAI's usage block of an answer. */
export const usageOf = (question: QuestionRecord) => {
  const prompt = question.usage?.promptTokens ?? 0
  const completion = question.usage?.completionTokens ?? 0
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }
}

/**
 * OpenAI's finish reason: `length` when the answer stopped at a token cap — the request's
 * max_tokens or the server's own (GENERATION_MAX_TOKENS), as the generator said — else `stop`.
 */
export function finishReasonOf(question: Pick<QuestionRecord, 'options' | 'usage'>): 'stop' | 'length' {
  const { usage } = question
  if (!usage) return 'stop'
  const cap = question.options.maxTokens
  return usage.stoppedAtCap === true || (cap !== undefined && usage.completionTokens >= cap)
    ? 'length'
    : 'stop'
}

/** An error event in OpenAI's shape, for a stream already under way (its status is sent). */
export const streamError = (message: string, type: string, code: string | null) =>
  JSON.stringify({ error: { message, type, param: null, code } })

/** The whole completion (no stream) of a finished question. */
export function completionOf(base: { id: string; created: number; model: string }, finished: QuestionRecord) {
  const { passages, list: cited } = citationsOf(finished)
  const looked = lookedAtOf(finished)
  const list = `${cited}${looked.list}`
  return {
    ...base,
    object: 'chat.completion' as const,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant' as const,
          content: `${finished.answer ?? ''}${list}`,
          // OpenAI's field for a model declining on policy grounds: never, here (a refusal for
          // want of documents is an answer saying so).
          refusal: null,
        },
        finish_reason: finishReasonOf(finished),
        logprobs: null,
      },
    ],
    usage: usageOf(finished),
    citations: passages,
    looked_at: looked.passages,
    // The short answer, its kind and the sentence it stands in (as the web app and the CLI show them).
    short_answer: shortAnswerOf(finished),
  }
}

/** The answer's short answer, when it has one: the span, its kind, its evidence sentence, and the line every surface shows. */
export function shortAnswerOf(question: QuestionRecord) {
  const citation = question.refused ? undefined : question.citations[0]
  if (!citation?.span) return null
  return {
    text: citation.span,
    type: citation.spanType ?? null,
    evidence: citation.quotes?.join(' ') ?? null,
    line: shortAnswerLine(citation.span, citation.spanType, languageOf(question.question)),
  }
}
