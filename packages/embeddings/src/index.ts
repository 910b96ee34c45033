export { createModelProvider, type ModelProvider } from '@rag/runtime'
export type { Embedder, ModelState } from './embedder.ts'
export { embedderProvider } from './embedder-provider.ts'
export {
  configureModelCache,
  downloadProgressLogger,
  fetchModelFiles,
  loadTransformersEmbedder,
  prefixesFor,
  type TransformersEmbedderOptions,
} from './transformers-embedder.ts'
