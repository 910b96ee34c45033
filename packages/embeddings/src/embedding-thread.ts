// The embedding model's own thread (see startModelThread): the ONNX session runs here, so the
// embed worker and the gateway never wait on inference with their event loop.
import { type FeatureExtractionPipeline, pipeline } from '@huggingface/transformers'
import type { OnnxDtype } from '@rag/config'
import { serveModelThread } from '@rag/runtime/serve-model-thread'
import { configureModelCache, downloadProgressLogger } from './transformers-embedder.ts'

export interface EmbeddingInit {
  model: string
  modelsDir: string
  allowDownload: boolean
  batchSize: number
  dtype: OnnxDtype
  pooling: 'mean' | 'cls'
  threads: number
  endpoint?: string
}

await serveModelThread<EmbeddingInit, string[], number[][]>(async (init, logger) => {
  configureModelCache(init.modelsDir, init.allowDownload, init.endpoint)
  const extractor = (await pipeline('feature-extraction', init.model, {
    dtype: init.dtype,
    session_options: { intraOpNumThreads: init.threads, interOpNumThreads: 1 },
    progress_callback: downloadProgressLogger(init.model, logger),
  })) as FeatureExtractionPipeline
  return async (texts) => {
    const vectors: number[][] = []
    for (let i = 0; i < texts.length; i += init.batchSize) {
      const output = await extractor(texts.slice(i, i + init.batchSize), {
        pooling: init.pooling,
        normalize: true,
      })
      vectors.push(...(output.tolist() as number[][]))
    }
    return vectors
  }
})
