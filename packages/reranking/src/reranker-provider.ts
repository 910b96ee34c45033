import type { ModelsSection } from '@rag/config'
import type { Logger } from '@rag/log'
import { createModelProvider, type ModelProvider } from '@rag/runtime'
import { loadCrossEncoder, type Reranker } from './cross-encoder.ts'

/** The configured cross-encoder, loaded once per process; unavailable → null (retrieval order kept). */
export function rerankerProvider(models: ModelsSection, logger: Logger): ModelProvider<Reranker> {
  return createModelProvider<Reranker>({
    name: models.reranker,
    setting: 'RERANKER_MODEL',
    logger,
    load: () =>
      loadCrossEncoder({
        model: models.reranker ?? '',
        modelsDir: models.dir,
        allowDownload: models.allowDownload,
        threads: models.onnxThreads,
        dtype: models.rerankerDtype,
        endpoint: models.endpoint,
        logger,
      }),
  })
}
