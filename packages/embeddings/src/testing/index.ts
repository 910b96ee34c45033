export { loadTinyEmbedder } from './tiny-embedder.ts'
export { findSharedTokenizer, TOKENIZER_FILES, writeTinyEmbeddingModel } from './tiny-embedding-model.ts'
