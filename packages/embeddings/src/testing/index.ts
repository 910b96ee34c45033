export { findSharedTokenizer, TOKENIZER_FILES, writeTinyEmbeddingModel } from './tiny-embedding-model.ts'
export { encodeModel, floatTensor, seededFloats, tensorType } from './tiny-onnx.ts'
