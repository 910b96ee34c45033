import type { ModelsSection } from '@rag/config'
import type { Logger } from '@rag/log'
import { createModelProvider, type ModelProvider } from '@rag/runtime'
import type { Embedder } from './embedder.ts'
import { loadTransformersEmbedder } from './transformers-embedder.ts'

/** The configured embedding model, loaded on first use and never a crash when unavailable. */
export function embedderProvider(models: ModelsSection, logger: Logger): ModelProvider<Embedder> {
  const { embedding, dir, allowDownload } = models
  return createModelProvider<Embedder>({
    name: embedding.model,
    setting: 'EMBEDDING_MODEL',
    logger,
    load: () =>
      loadTransformersEmbedder({
        model: embedding.model ?? '',
        dim: embedding.dim,
        modelsDir: dir,
        allowDownload,
        threads: models.onnxThreads,
        recipe: embedding.recipe,
        endpoint: models.endpoint,
        dtype: embedding.dtype,
        logger,
      }),
  })
}
