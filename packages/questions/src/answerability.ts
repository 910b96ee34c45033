import type { AnswerabilitySignals } from '@rag/retrieval'
import { answerProbability } from './answerability-model.ts'
import type { Answerability } from './question-store.ts'

/**
 * How likely the passages answer the question, by the fitted model over their signals. Recorded
 * with the question for calibration and for the user to judge; refusal is still decided by the
 * evidence (REFUSAL_THRESHOLD) until a model refuses more at the same false refusals on the
 * evaluation sets (docs/evaluation.md has the comparison).
 */
export function judgeAnswerability(signals: AnswerabilitySignals): Answerability {
  return { probability: answerProbability(signals), signals }
}
