export { ENGLISH_STOPWORDS, JAPANESE_STOPWORDS } from './stopwords.ts'
export { type TokenizerKind, tokenize } from './tokenize.ts'
