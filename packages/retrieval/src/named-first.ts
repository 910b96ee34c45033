import type { RankedChunk } from './ranked-chunk.ts'

/**
 * The ranking with the passages holding most of the question's rare names first (XR-300, JSQuAD:
 * keyword search counts them, RankedChunk.namesHeld), each group in the order it had. Fused by
 * rank alone, a row holding the one rare name the question gives lost to rows that matched only
 * its common words twice over (keyword's second to fourth, the embedder's first to third); a
 * name's exact letters are the one thing the question cannot have meant otherwise.
 */
export function namedFirst(ranked: RankedChunk[], keyword: RankedChunk[]): RankedChunk[] {
  const held = new Map<string, number>()
  for (const item of keyword) if (item.namesHeld) held.set(item.chunkId, item.namesHeld)
  if (held.size === 0) return ranked
  return ranked
    .map((item, index) => ({ item, index, held: held.get(item.chunkId) ?? 0 }))
    .sort((a, b) => b.held - a.held || a.index - b.index)
    .map(({ item }) => item)
}
