import type { Retriever } from '@rag/api-contract/enums'

/** One retriever's opinion: chunks best first, with the retriever's own score. */
export interface RankedChunk {
  chunkId: string
  score: number
  /**
   * Set by keyword search: how many of the question's rare names (a model number, an acronym:
   * @rag/keyword namedTerms) the chunk holds, when it holds any.
   */
  namesHeld?: number
  /** Set by search: the retrievers whose ranking holds it. */
  foundBy?: Retriever[]
  /** Set by search: where each retriever ranked it (1 = first), and where the fused ranking did. */
  ranks?: RetrievalRanks
}

/** Where a passage stood in each ranking that found it: what a reader is shown as "why". */
export interface RetrievalRanks {
  keyword?: number
  vector?: number
  /** In the ranking search returned (fused in hybrid mode), before one passage per section. */
  fused?: number
}

export interface SearchFilters {
  /** Only documents of this collection. */
  collection?: string
  /**
   * Only documents of these collections (the caller's grants): applied inside the SQL, so a passage
   * of any other collection never reaches ranking. Absent or null: no limit.
   */
  within?: string[] | null
}
