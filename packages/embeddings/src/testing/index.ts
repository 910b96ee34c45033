export { findSharedTokenizer, TOKENIZER_FILES, writeTinyEmbeddingModel } from './tiny-embedding-model.ts'
