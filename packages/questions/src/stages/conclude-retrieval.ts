import { questionWords } from '@rag/retrieval'
import { extractiveAnswerOf } from '../extractive-answer.ts'
import { languageOf, refusalOf } from '../language.ts'
import type { Answerability, QuestionRecord, QuestionSource } from '../question-store.ts'
import { decisionOf, refuses, type ScoreScale } from '../refusal-decision.ts'
import { handOn } from './hand-on.ts'
import type { QuestionContext } from './question-context.ts'
import { advance } from './question-progress.ts'

/**
 * After the last retrieval step (search, or rerank when on): refuse when the documents hold no
 * answer (refusal-decision.ts; no LLM call), naming the passages looked at; answer extractively or
 * not at all when asked to, else hand the passages to the LLM.
 */
export async function concludeRetrieval(
  deps: QuestionContext,
  question: QuestionRecord,
  sources: QuestionSource[],
  given: { degraded?: string[]; timings?: Record<string, number>; answerability?: Answerability },
  scale: ScoreScale = 'evidence',
): Promise<void> {
  const { answer } = question.options
  const judged = given.answerability ?? question.answerability
  // Kept with the threshold it was held against: what the reader's "why" shows.
  const answerability = decisionOf(judged, sources, scale, deps.retrieval)
  const patch = answerability ? { ...given, answerability } : given
  const refused = refuses(judged, sources, scale, deps.retrieval)
  // Asked for passages only: no answer is written either way, but a question the documents do
  // not answer is still refused, so `refused` means the same in every answer mode.
  if (answer === 'none') {
    await advance(deps, question.id, 'done', { ...patch, sources, answer: null, refused })
    return
  }
  if (refused) {
    await advance(deps, question.id, 'done', {
      ...patch,
      sources,
      answer: refusalOf(languageOf(question.question), sources),
      refused: true,
    })
    return
  }
  const extracted = await extractiveAnswer(deps, question, sources)
  // The best passage says the thing asked about is not stated: the documents hold no answer.
  if (extracted.refused) {
    await advance(deps, question.id, 'done', {
      ...patch,
      sources,
      answer: refusalOf(languageOf(question.question), sources),
      refused: true,
    })
    return
  }
  if (answer === 'extractive') {
    await advance(deps, question.id, 'done', { ...patch, sources, ...extracted })
    return
  }
  // The answer the passages give at once, shown (marked provisional) while the LLM writes its own.
  const provisional = extracted
  const moved = await advance(deps, question.id, 'generating', {
    ...patch,
    sources,
    answer: provisional.answer,
    citations: provisional.citations,
    provisional: provisional.answer !== null,
  })
  // Told before the LLM's job is queued, so no watcher sees its first token before the stand-in.
  if (provisional.answer !== null) await deps.publish(question.id, { type: 'provisional' })
  if (moved) await handOn(deps, moved)
}

/** The best passage's answering sentence (or cell) is the answer (no model needed), citing it. */
export async function extractiveAnswer(
  deps: Pick<QuestionContext, 'pool' | 'synonyms'>,
  question: Pick<QuestionRecord, 'question' | 'options'>,
  sources: QuestionSource[],
) {
  const synonyms = await deps.synonyms.forSearch(question.options)
  const { idf, alternates } = await questionWords(deps.pool, question.question, question.options, synonyms)
  return extractiveAnswerOf(question.question, sources, idf, alternates)
}
