import type { RetrievalSection } from '@rag/config'
import type { Answerability, QuestionSource } from './question-store.ts'

/** What the sources' scores are: term evidence, or the cross-encoder's relevance probability. */
export type ScoreScale = 'evidence' | 'reranker'

type Thresholds = Pick<RetrievalSection, 'refusalThreshold' | 'rerankRefusalThreshold'>

/** The refusal threshold of a scale (two unrelated scales, two settings). */
export function refusalThresholdFor(retrieval: Thresholds, scale: ScoreScale): number {
  return scale === 'reranker' ? retrieval.rerankRefusalThreshold : retrieval.refusalThreshold
}

/**
 * The number a question's refusal is decided on, 0..1, on its scale: the reranker's best
 * probability when it reranked; else the fitted judgement's probability over the word signals,
 * unless the reranker judged the passages the embedder found after the words said no (answered 1,
 * refused 0). Answers stored before the judgement fall back to the best passage's evidence. The
 * evaluation sweeps this number.
 */
export function refusalScore(
  answerability: Answerability | null | undefined,
  sources: Pick<QuestionSource, 'score'>[],
  scale: ScoreScale,
  thresholds: Thresholds,
): number {
  const best = Math.max(0, ...sources.map((source) => source.score))
  if (scale === 'reranker' || !answerability) return best
  if (answerability.decidedBy === 'reranker')
    return (answerability.rerankerProbability ?? 0) >= thresholds.rerankRefusalThreshold ? 1 : 0
  return answerability.probability
}

/** Whether the documents hold no answer: the question is refused without the LLM. */
export function refuses(
  answerability: Answerability | null | undefined,
  sources: Pick<QuestionSource, 'score'>[],
  scale: ScoreScale,
  thresholds: Thresholds,
): boolean {
  return refusalScore(answerability, sources, scale, thresholds) < refusalThresholdFor(thresholds, scale)
}

/** Passages the embedder found (alone or with the words): a reranker can judge them by meaning. */
export const foundByMeaning = (source: Pick<QuestionSource, 'foundBy'>) =>
  source.foundBy?.includes('vector') === true

/**
 * The judgement as it decided, for the reader's "why": the threshold the deciding number was held
 * against, and when the reranker's scores decided (reranking asked for), that it did, with its best.
 */
export function decisionOf(
  answerability: Answerability | null | undefined,
  sources: Pick<QuestionSource, 'score'>[],
  scale: ScoreScale,
  thresholds: Thresholds,
): Answerability | null {
  if (!answerability) return null
  if (scale === 'reranker')
    return {
      ...answerability,
      decidedBy: 'reranker',
      rerankerProbability: Math.max(0, ...sources.map((source) => source.score)),
      threshold: thresholds.rerankRefusalThreshold,
    }
  const byReranker = answerability.decidedBy === 'reranker'
  return {
    ...answerability,
    threshold: byReranker ? thresholds.rerankRefusalThreshold : thresholds.refusalThreshold,
  }
}
