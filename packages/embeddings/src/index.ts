export { createModelProvider, type ModelProvider } from '@rag/runtime'
export { cacheKeyOf, type Embedder, type ModelState } from './embedder.ts'
export { embedderProvider } from './embedder-provider.ts'
export { configureModelCache, downloadProgressLogger } from './model-cache.ts'
export {
  fetchModelFiles,
  loadTransformersEmbedder,
  prefixesFor,
  type TransformersEmbedderOptions,
} from './transformers-embedder.ts'
