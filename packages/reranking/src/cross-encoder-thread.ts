// The cross-encoder's own thread (see startModelThread): tokenizer and ONNX session live here, so
// the worker's event loop never waits on inference.

import { resolve } from 'node:path'
import { AutoModelForSequenceClassification, AutoTokenizer, env } from '@huggingface/transformers'
import type { OnnxDtype } from '@rag/config'
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
}

export interface ScoreRequest {
  question: string
  passages: string[]
}

await serveModelThread<CrossEncoderInit, ScoreRequest, number[]>(async (init, logger) => {
  env.localModelPath = resolve(init.modelsDir)
  env.cacheDir = resolve(init.modelsDir)
  env.allowLocalModels = true
  env.allowRemoteModels = init.allowDownload
  let lastReported = 0
  const progress_callback = (progress: { status: string; file?: string; progress?: number }) => {
    if (progress.status !== 'progress' || Date.now() - lastReported < 2000) return
    lastReported = Date.now()
    logger.info(
      { model: init.model, file: progress.file, percent: Math.round(progress.progress ?? 0) },
      'downloading model',
    )
  }
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
