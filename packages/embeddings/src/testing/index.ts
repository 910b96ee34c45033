export { findSharedTokenizer, TOKENIZER_FILES, writeTinyEmbeddingModel } from './tiny-embedding-model.ts'
export { encodeModel, floatTensor, seededFloats, tensorType, writeModelFolder } from './tiny-onnx.ts'
