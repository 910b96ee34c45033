/** Turns texts into L2-normalised vectors of one model. */
export interface Embedder {
  model: string
  dim: number
  /**
   * What its passage vectors are comparable with: the model and the settings that change them
   * (embeddingCacheKey in @rag/config). The embedding cache is keyed by it; the model when absent.
   */
  cacheKey?: string
  /** Documents being indexed (e5 models want "passage: " before them). */
  embedPassages(texts: string[]): Promise<number[][]>
  /** A search query (e5: "query: "). */
  embedQuery(text: string): Promise<number[]>
  /** Frees the model (its thread); optional for embedders that hold nothing. */
  close?(): Promise<void>
}

export type { ModelState } from '@rag/runtime'

/** The key of an embedder's passage vectors in the embedding cache. */
export const cacheKeyOf = (embedder: Embedder): string => embedder.cacheKey ?? embedder.model
