import type { RankedChunk } from './ranked-chunk.ts'

export interface WeightedList {
  items: RankedChunk[]
  weight: number
}

/**
 * Weighted reciprocal rank fusion: score(c) = Σ weight_i / (k + rank_i(c)), ranks 1-based. Only
 * ranks matter, so scores of different retrievers (BM25, cosine) need no calibration.
 */
export function reciprocalRankFusion(lists: WeightedList[], k = 60): RankedChunk[] {
  const scores = new Map<string, number>()
  for (const { items, weight } of lists) {
    items.forEach((item, index) => {
      scores.set(item.chunkId, (scores.get(item.chunkId) ?? 0) + weight / (k + index + 1))
    })
  }
  return [...scores]
    .map(([chunkId, score]) => ({ chunkId, score }))
    .sort((a, b) => b.score - a.score || a.chunkId.localeCompare(b.chunkId))
}
