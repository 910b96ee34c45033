export { type QueryAlternate, queryAlternates, withAlternates } from './query-alternates.ts'
export { parseSolrSynonyms, SYNONYM_FILE_LIMITS, SynonymFileError } from './solr-synonyms.ts'
export { sudachiSynonyms } from './sudachi-synonyms.ts'
export {
  MAX_GROUP_WORDS,
  SYNONYM_WEIGHTS,
  type SynonymAlternate,
  type SynonymGroup,
  SynonymTable,
  type SynonymWord,
  synonymKey,
} from './synonym-table.ts'
