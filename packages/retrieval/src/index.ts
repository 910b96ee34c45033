export type { TextRegion } from '@rag/chunking'
export {
  type AnswerabilitySignals,
  answerabilitySignals,
  type CandidatePassage,
  SIGNAL_NAMES,
} from './answerability-signals.ts'
export {
  type CollectionSynonyms,
  deleteCollectionSynonyms,
  MAX_SYNONYMS_BYTES,
  readCollectionSynonyms,
  saveCollectionSynonyms,
} from './collection-synonyms.ts'
export { judgePassages, questionWords, questionWordWeights } from './evidence.ts'
export { EVIDENCE_WINDOW } from './evidence-window.ts'
export { type KeywordSearchOptions, keywordSearch, RESCORED_CANDIDATES } from './keyword-search.ts'
export { loadHits, onePerParent, type Retriever, type SearchHit } from './load-hits.ts'
export type { RankedChunk, RetrievalRanks, SearchFilters } from './ranked-chunk.ts'
export { reciprocalRankFusion, type WeightedList } from './reciprocal-rank-fusion.ts'
export {
  rankingSettings,
  SEARCH_MODES,
  type SearchMode,
  type SearchRequest,
  type SearchResult,
  search,
} from './search.ts'
export { NO_SYNONYMS, type SynonymSource, synonymSource } from './synonym-source.ts'
export { vectorSearch } from './vector-search.ts'
