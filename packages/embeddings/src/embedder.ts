/** Turns texts into L2-normalised vectors of one model. */
export interface Embedder {
  model: string
  dim: number
  /** Documents being indexed (e5 models want "passage: " before them). */
  embedPassages(texts: string[]): Promise<number[][]>
  /** A search query (e5: "query: "). */
  embedQuery(text: string): Promise<number[]>
  /** Frees the model (its thread); optional for embedders that hold nothing. */
  close?(): Promise<void>
}

export type { ModelState } from '@rag/runtime'
