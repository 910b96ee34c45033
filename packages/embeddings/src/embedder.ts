/** Turns texts into L2-normalised vectors of one model. */
export interface Embedder {
  model: string
  dim: number
  /** Documents being indexed (e5 models want "passage: " before them). */
  embedPassages(texts: string[]): Promise<number[][]>
  /** A search query (e5: "query: "). */
  embedQuery(text: string): Promise<number[]>
}

/** What health reports say about a model: loaded, off on purpose, or failing (and why). */
export type ModelState =
  | { state: 'disabled' }
  | { state: 'loading' }
  | { state: 'ready'; model: string }
  | { state: 'unavailable'; model: string; error: string; retryAt: string }
