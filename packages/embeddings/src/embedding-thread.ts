// The embedding model's own thread (see startModelThread): the ONNX session runs here, so the
// embed worker and the gateway never wait on inference with their event loop.
import {
  type FeatureExtractionPipeline,
  mean_pooling,
  pipeline,
  type Tensor,
} from '@huggingface/transformers'
import type { OnnxDtype } from '@rag/config'
import { serveModelThread } from '@rag/runtime/serve-model-thread'
import { closeTruncatedRows, closingTokenOf } from './close-truncated-rows.ts'
import { configureModelCache, downloadProgressLogger } from './model-cache.ts'

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
  await configureModelCache(init.modelsDir, init.allowDownload, init.endpoint)
  const extractor = (await pipeline('feature-extraction', init.model, {
    dtype: init.dtype,
    session_options: { intraOpNumThreads: init.threads, interOpNumThreads: 1 },
    progress_callback: downloadProgressLogger(init.model, logger),
  })) as FeatureExtractionPipeline
  const closing = closingTokenOf(extractor.tokenizer.encode(''))
  // The pipeline's own steps (tokenize, run, pool, normalise), with the closing token put back
  // where truncation cut it off (see closeTruncatedRows).
  const embedBatch = async (texts: string[]) => {
    const inputs = extractor.tokenizer(texts, { padding: true, truncation: true }) as Record<string, Tensor>
    const { input_ids: ids, attention_mask: mask } = inputs
    if (closing !== undefined && ids && mask) closeTruncatedRows(ids, mask, closing)
    const outputs = (await extractor.model(inputs)) as Record<string, Tensor | undefined>
    const hidden = outputs.last_hidden_state ?? outputs.token_embeddings ?? outputs.logits
    if (!hidden || !mask) throw new Error(`${init.model} gave no token embeddings`)
    const pooled = init.pooling === 'mean' ? mean_pooling(hidden, mask) : hidden.slice(null, 0)
    return pooled.normalize(2, -1).tolist() as number[][]
  }
  return async (texts) => {
    const vectors: number[][] = []
    for (let i = 0; i < texts.length; i += init.batchSize)
      vectors.push(...(await embedBatch(texts.slice(i, i + init.batchSize))))
    return vectors
  }
})
