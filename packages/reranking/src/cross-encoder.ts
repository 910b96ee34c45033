import type { OnnxDtype } from '@rag/config'
import { fetchModelFiles } from '@rag/embeddings'
import type { Logger } from '@rag/log'
import { startModelThread } from '@rag/runtime'
import type { CrossEncoderInit, ScoreRequest } from './cross-encoder-thread.ts'

export { relevanceOf } from './relevance.ts'

/** Scores how well each passage answers a question, 0..1, in the passages' order. */
export interface Reranker {
  model: string
  score(question: string, passages: string[]): Promise<number[]>
  close(): Promise<void>
}

export interface CrossEncoderOptions {
  /** Hub id (downloaded to modelsDir on first use) or a folder under modelsDir. */
  model: string
  modelsDir: string
  allowDownload: boolean
  logger: Logger
  batchSize?: number
  dtype?: OnnxDtype
  /** Tokens per (question, passage) pair; longer pairs are cut (the passage side). */
  maxLength?: number
  /** ONNX intra-op threads (ONNX_THREADS). */
  threads?: number
  /** Hub or mirror to download from (MODEL_ENDPOINT). */
  endpoint?: string
}

const THREAD = new URL(
  `./cross-encoder-thread${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
)

/** Loads the cross-encoder in a thread of its own; scoring never blocks this thread's event loop. */
export async function loadCrossEncoder(options: CrossEncoderOptions): Promise<Reranker> {
  await fetchModelFiles({ ...options, dtype: options.dtype ?? 'q8' })
  const init: CrossEncoderInit = {
    model: options.model,
    modelsDir: options.modelsDir,
    // Already fetched above: the thread reads local files only.
    allowDownload: false,
    batchSize: options.batchSize ?? 8,
    dtype: options.dtype ?? 'q8',
    maxLength: options.maxLength ?? 512,
    threads: options.threads ?? 1,
    endpoint: options.endpoint,
  }
  const thread = await startModelThread<ScoreRequest, number[]>(THREAD, init, options.logger)
  return {
    model: options.model,
    score: (question, passages) =>
      passages.length === 0 ? Promise.resolve([]) : thread.call({ question, passages }),
    close: () => thread.close(),
  }
}
