export { type AnswerKind, answerKindOf, isAnswerKindTerm } from './answer-kind.ts'
export { bigramCounts } from './bigram-counts.ts'
export { Bm25Index } from './bm25-index.ts'
export { type Morpheme, morphemes } from './japanese-morphology.ts'
export { namedTerms, namesHeld, RARE_NAME_SHARE, rareNames } from './named-terms.ts'
export { type PassageMatches, passageMatches } from './passage-matches.ts'
export {
  analyzeQuery,
  type Bm25Parameters,
  coverageNearKind,
  DEFAULT_RELEVANCE,
  inverseDocumentFrequency,
  type PassageEvidence,
  phraseShare,
  type QueryTerms,
  type RelevanceStatistics,
  type RelevanceWeights,
  scorePassages,
} from './passage-relevance.ts'
export { ENGLISH_STOPWORDS, JAPANESE_STOPWORDS } from './stopwords.ts'
export {
  MAX_GROUP_WORDS,
  parseSolrSynonyms,
  type QueryAlternate,
  queryAlternates,
  SYNONYM_FILE_LIMITS,
  SYNONYM_WEIGHTS,
  type SynonymAlternate,
  SynonymFileError,
  type SynonymGroup,
  SynonymTable,
  sudachiSynonyms,
  withAlternates,
} from './synonyms/index.ts'
export { ANALYZER_VERSION, analyzeText, type TextTerms, type TokenizerKind, tokenize } from './tokenize.ts'
export { windowCoverage } from './window-coverage.ts'
