import type { AnswerabilitySignals } from '@rag/retrieval'
import {
  ANSWERABILITY_MODEL,
  type AnswerabilityModel,
  answerProbability,
  decidingSignals,
} from './answerability-model.ts'
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
  threshold = 0.5,
): Answerability {
  const model = calibrated ?? ANSWERABILITY_MODEL
  const probability = answerProbability(signals, model)
  // The signals that weighed most toward what the words decide: a refusal explained.
  const deciding = decidingSignals(signals, probability >= threshold, model)
  return { probability, signals, decidedBy: 'words', deciding, ...(calibrated ? { calibrated: true } : {}) }
}
