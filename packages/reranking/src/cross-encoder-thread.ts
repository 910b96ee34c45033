// The cross-encoder's own thread (see startModelThread): tokenizer and ONNX session live here, so
// the worker's event loop never waits on inference.

import { AutoModelForSequenceClassification, AutoTokenizer } from '@huggingface/transformers'
import type { OnnxDtype } from '@rag/config'
import { configureModelCache, downloadProgressLogger } from '@rag/embeddings'
import { serveModelThread } from '@rag/runtime/serve-model-thread'
import { relevanceOf } from './relevance.ts'

export interface CrossEncoderInit {
  model: string
  modelsDir: string
  allowDownload: boolean
  batchSize: number
  dtype: OnnxDtype
  maxLength: number
  /** ONNX intra-op threads for this session. */
  threads: number
  endpoint?: string
}

export interface ScoreRequest {
  question: string
  passages: string[]
}

await serveModelThread<CrossEncoderInit, ScoreRequest, number[]>(async (init, logger) => {
  await configureModelCache(init.modelsDir, init.allowDownload, init.endpoint)
  const progress_callback = downloadProgressLogger(init.model, logger)
  const tokenizer = await AutoTokenizer.from_pretrained(init.model, { progress_callback })
  const classifier = await AutoModelForSequenceClassification.from_pretrained(init.model, {
    dtype: init.dtype,
    progress_callback,
    session_options: { intraOpNumThreads: init.threads, interOpNumThreads: 1 },
  })
  return async ({ question, passages }) => {
    const scores: number[] = []
    for (let i = 0; i < passages.length; i += init.batchSize) {
      const batch = passages.slice(i, i + init.batchSize)
      const inputs = tokenizer(
        batch.map(() => question),
        { text_pair: batch, padding: true, truncation: true, max_length: init.maxLength },
      )
      const { logits } = await classifier(inputs)
      for (const row of logits.tolist() as number[][]) scores.push(relevanceOf(row))
    }
    return scores
  }
})
