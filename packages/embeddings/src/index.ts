export type { Embedder, ModelState } from './embedder.ts'
export { embedderProvider } from './embedder-provider.ts'
export { createModelProvider, type ModelProvider } from './model-provider.ts'
export {
  configureModelCache,
  loadTransformersEmbedder,
  prefixesFor,
  type TransformersEmbedderOptions,
} from './transformers-embedder.ts'
