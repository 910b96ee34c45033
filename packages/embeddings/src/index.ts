export { createModelProvider, type ModelProvider } from '@rag/runtime'
export type { Embedder, ModelState } from './embedder.ts'
export { embedderProvider } from './embedder-provider.ts'
export { type LocalModel, localModel } from './model-files.ts'
export {
  configureModelCache,
  downloadProgressLogger,
  loadTransformersEmbedder,
  prefixesFor,
  type TransformersEmbedderOptions,
} from './transformers-embedder.ts'
