export { type CrossEncoderOptions, loadCrossEncoder, type Reranker, relevanceOf } from './cross-encoder.ts'
export { rerankerProvider } from './reranker-provider.ts'
