import type { AnswerabilitySignals } from '@rag/retrieval'
import { answerProbability } from './answerability-model.ts'
import type { Answerability } from './question-store.ts'

/**
 * How likely the passages answer the question, by the fitted model over their word signals
 * (answerability-model.json): refused below REFUSAL_THRESHOLD unless a reranker or passages only
 * the embedder found decide instead (refusal-decision.ts).
 */
export function judgeAnswerability(signals: AnswerabilitySignals): Answerability {
  return { probability: answerProbability(signals), signals, decidedBy: 'words' }
}
