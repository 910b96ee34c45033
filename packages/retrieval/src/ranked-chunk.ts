/** One retriever's opinion: chunks best first, with the retriever's own score. */
export interface RankedChunk {
  chunkId: string
  score: number
}

export interface SearchFilters {
  /** Only documents of this collection. */
  collection?: string
}
