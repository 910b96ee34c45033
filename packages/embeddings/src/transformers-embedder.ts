import { resolve } from 'node:path'
import { env } from '@huggingface/transformers'
import { type EmbeddingRecipe, embeddingRecipe, type OnnxDtype } from '@rag/config'
import type { Logger } from '@rag/log'
import { startModelThread } from '@rag/runtime'
import type { Embedder } from './embedder.ts'
import type { EmbeddingInit } from './embedding-thread.ts'

export interface TransformersEmbedderOptions {
  /** Hub id (downloaded to modelsDir on first use) or a folder under modelsDir. */
  model: string
  /** Expected output size; a model that disagrees is refused (the database column has this size). */
  dim: number
  modelsDir: string
  allowDownload: boolean
  logger: Logger
  batchSize?: number
  dtype?: OnnxDtype
  /** Pooling and prefixes; default: the model family's. */
  recipe?: EmbeddingRecipe
  /** ONNX intra-op threads (ONNX_THREADS). */
  threads?: number
  /** Hub or mirror to download from (MODEL_ENDPOINT). */
  endpoint?: string
}

/** The prefixes a model was trained with (its family's; see embeddingRecipe in @rag/config). */
export function prefixesFor(model: string): { passage: string; query: string } {
  const { queryPrefix, passagePrefix } = embeddingRecipe(model)
  return { passage: passagePrefix, query: queryPrefix }
}

/** transformers.js progress callback: download progress on first start, logged at most every 2 s. */
export function downloadProgressLogger(
  model: string,
  logger: { info(fields: Record<string, unknown>, message: string): void },
) {
  let lastReported = 0
  return (progress: { status: string; file?: string; progress?: number }) => {
    if (progress.status !== 'progress' || Date.now() - lastReported < 2000) return
    lastReported = Date.now()
    logger.info(
      { model, file: progress.file, percent: Math.round(progress.progress ?? 0) },
      'downloading model',
    )
  }
}

/** Points transformers.js at our models folder and hub; downloads only when allowed. */
export function configureModelCache(modelsDir: string, allowDownload: boolean, endpoint?: string) {
  env.localModelPath = resolve(modelsDir)
  env.cacheDir = resolve(modelsDir)
  env.allowLocalModels = true
  env.allowRemoteModels = allowDownload
  if (endpoint) env.remoteHost = endpoint
}

const THREAD = new URL(
  `./embedding-thread${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
)

/** Loads the model in a thread of its own: embedding never blocks this thread's event loop. */
export async function loadTransformersEmbedder(options: TransformersEmbedderOptions): Promise<Embedder> {
  const { model, dim, logger } = options
  const recipe = options.recipe ?? embeddingRecipe(model)
  const init: EmbeddingInit = {
    model,
    modelsDir: options.modelsDir,
    allowDownload: options.allowDownload,
    batchSize: options.batchSize ?? 16,
    dtype: options.dtype ?? 'q8',
    pooling: recipe.pooling,
    threads: options.threads ?? 1,
    endpoint: options.endpoint,
  }
  const thread = await startModelThread<string[], number[][]>(THREAD, init, logger)
  const prefixes = { passage: recipe.passagePrefix, query: recipe.queryPrefix }
  const embed = async (texts: string[]): Promise<number[][]> => {
    if (texts.length === 0) return []
    const vectors = await thread.call(texts)
    for (const row of vectors) {
      if (row.length !== dim) {
        throw new Error(`EMBEDDING_DIM is ${dim} but ${model} produces ${row.length}-dimensional vectors`)
      }
    }
    return vectors
  }
  // A wrong EMBEDDING_DIM is found now, at load, not at the first chunk embedded.
  const [probe] = await thread.call(['dimension check'])
  if (probe?.length !== dim) {
    await thread.close()
    throw new Error(`EMBEDDING_DIM is ${dim} but ${model} produces ${probe?.length}-dimensional vectors`)
  }
  return {
    model,
    dim,
    embedPassages: (texts) => embed(texts.map((text) => prefixes.passage + text)),
    embedQuery: async (text) => {
      const [vector] = await embed([prefixes.query + text])
      if (!vector) throw new Error('no vector returned')
      return vector
    },
    close: () => thread.close(),
  }
}
