export const CUTOFFS = [1, 3, 5, 10] as const

export interface RetrievalScores {
  hit: Record<(typeof CUTOFFS)[number], number>
  recall: Record<(typeof CUTOFFS)[number], number>
  reciprocalRank: number
  ndcg10: number
}

/**
 * Scores of one ranking of documents (chunks already mapped to their document, duplicates
 * removed) against graded gold: hit@k, recall@k, reciprocal rank within 10, nDCG@10 with the
 * grades as gains (binary gold gives the usual binary nDCG).
 */
export function scoreRanking(ranked: string[], gold: Record<string, number>): RetrievalScores {
  const top = ranked.slice(0, 10)
  const relevant = Object.keys(gold).filter((id) => (gold[id] ?? 0) > 0)
  const first = top.findIndex((id) => (gold[id] ?? 0) > 0)
  const hit = {} as RetrievalScores['hit']
  const recall = {} as RetrievalScores['recall']
  for (const k of CUTOFFS) {
    const found = top.slice(0, k).filter((id) => (gold[id] ?? 0) > 0).length
    hit[k] = found > 0 ? 1 : 0
    recall[k] = relevant.length > 0 ? found / relevant.length : 0
  }
  const dcg = top.reduce((sum, id, i) => sum + (2 ** (gold[id] ?? 0) - 1) / Math.log2(i + 2), 0)
  const ideal = relevant
    .map((id) => gold[id] ?? 0)
    .sort((a, b) => b - a)
    .slice(0, 10)
    .reduce((sum, grade, i) => sum + (2 ** grade - 1) / Math.log2(i + 2), 0)
  return {
    hit,
    recall,
    reciprocalRank: first >= 0 ? 1 / (first + 1) : 0,
    ndcg10: ideal > 0 ? dcg / ideal : 0,
  }
}

export const mean = (values: number[]) =>
  values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
}

export interface RefusalSweepPoint {
  threshold: number
  /**
   * Share of all questions handled right: unanswerable refused; answerable answered with a
   * relevant document first (answering from the wrong passage is not a right answer).
   */
  accuracy: number
  noAnswerAccuracy: number
  falseRefusalRate: number
}

/** A question's best score, whether it has an answer, and (if so) whether a relevant document came first. */
export interface SweepInput {
  score: number
  answerable: boolean
  relevantFirst?: boolean
}

/** Thresholds swept: 0.025 to 0.975 by 0.025. */
export const SWEEP_STEP = 0.025

/**
 * What each refusal threshold would have done, from each question's best score: accuracy over
 * all, on unanswerable questions, and false refusals on answerable ones.
 */
export function refusalSweep(best: SweepInput[]): RefusalSweepPoint[] {
  const points: RefusalSweepPoint[] = []
  const answerable = best.filter((b) => b.answerable)
  const unanswerable = best.filter((b) => !b.answerable)
  for (let step = 1; step * SWEEP_STEP < 0.99; step++) {
    const threshold = Math.round(step * SWEEP_STEP * 1000) / 1000
    const refusedRight = unanswerable.filter((b) => b.score < threshold).length
    const refusedWrong = answerable.filter((b) => b.score < threshold).length
    const answeredRight = answerable.filter((b) => b.score >= threshold && b.relevantFirst !== false).length
    points.push({
      threshold,
      accuracy: (refusedRight + answeredRight) / Math.max(1, best.length),
      noAnswerAccuracy: unanswerable.length > 0 ? refusedRight / unanswerable.length : Number.NaN,
      falseRefusalRate: answerable.length > 0 ? refusedWrong / answerable.length : Number.NaN,
    })
  }
  return points
}

/** Share of expected keywords present in the answer (case-insensitive), and whether all are. */
export function keywordFaithfulness(answer: string, keywords: string[]): { share: number; exact: boolean } {
  if (keywords.length === 0) return { share: Number.NaN, exact: false }
  const text = answer.toLowerCase()
  const present = keywords.filter((keyword) => text.includes(keyword.toLowerCase())).length
  return { share: present / keywords.length, exact: present === keywords.length }
}
