// The embedding model's own thread (see startModelThread): the ONNX session runs here, so the
// embed worker and the gateway never wait on inference with their event loop.
import { resolve } from 'node:path'
import { env, type FeatureExtractionPipeline, pipeline } from '@huggingface/transformers'
import type { OnnxDtype } from '@rag/config'
import { serveModelThread } from '@rag/runtime/serve-model-thread'

export interface EmbeddingInit {
  model: string
  modelsDir: string
  allowDownload: boolean
  batchSize: number
  dtype: OnnxDtype
  pooling: 'mean' | 'cls'
  threads: number
}

await serveModelThread<EmbeddingInit, string[], number[][]>(async (init, logger) => {
  env.localModelPath = resolve(init.modelsDir)
  env.cacheDir = resolve(init.modelsDir)
  env.allowLocalModels = true
  env.allowRemoteModels = init.allowDownload
  let lastReported = 0
  const extractor = (await pipeline('feature-extraction', init.model, {
    dtype: init.dtype,
    session_options: { intraOpNumThreads: init.threads, interOpNumThreads: 1 },
    progress_callback: (progress: { status: string; file?: string; progress?: number }) => {
      if (progress.status !== 'progress' || Date.now() - lastReported < 2000) return
      lastReported = Date.now()
      logger.info(
        { model: init.model, file: progress.file, percent: Math.round(progress.progress ?? 0) },
        'downloading model',
      )
    },
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
