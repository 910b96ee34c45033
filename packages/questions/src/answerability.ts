import type { AnswerabilitySignals } from '@rag/retrieval'
import { type AnswerabilityModel, answerProbability } from './answerability-model.ts'
import type { Answerability } from './question-store.ts'

/**
 * How likely the passages answer the question, by the fitted model over their word signals
 * (answerability-model.json, or the collection's own from `rag calibrate`): refused below
 * REFUSAL_THRESHOLD unless a reranker or passages only the embedder
 * found decide instead (refusal-decision.ts).
 */
export function judgeAnswerability(
  signals: AnswerabilitySignals,
  calibrated: AnswerabilityModel | null = null,
): Answerability {
  return calibrated
    ? { probability: answerProbability(signals, calibrated), signals, decidedBy: 'words', calibrated: true }
    : { probability: answerProbability(signals), signals, decidedBy: 'words' }
}
