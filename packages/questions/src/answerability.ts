import type { AnswerabilitySignals, SearchMode } from '@rag/retrieval'
import { answerProbability } from './answerability-model.ts'
import { languageOf } from './language.ts'
import type { Answerability } from './question-store.ts'

/**
 * Whether the passages answer the question. Judged by the fitted model over their words, except
 * when the embedder alone found them in another language than the question's (an English question
 * over Japanese documents): no word can match there, so words cannot judge, and the question is
 * answered (a reranker, when one runs, and the LLM's own "the documents do not say" still can refuse).
 */
export function judgeAnswerability(
  question: string,
  signals: AnswerabilitySignals,
  passages: { text: string }[],
  mode: SearchMode,
): Answerability {
  const first = passages[0]
  if (
    mode !== 'keyword' &&
    signals.evidence === 0 &&
    first &&
    languageOf(first.text) !== languageOf(question)
  )
    return { probability: 1, signals, judgedBy: 'meaning' }
  return { probability: answerProbability(signals), signals, judgedBy: 'words' }
}
