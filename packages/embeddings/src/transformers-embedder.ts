import { type EmbeddingRecipe, embeddingCacheKey, embeddingRecipe, type OnnxDtype } from '@rag/config'
import type { Logger } from '@rag/log'
import { ensureTransformersModel, localModel } from '@rag/model-download'
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

const THREAD = new URL(
  `./embedding-thread${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
)

/**
 * Downloads what is missing of a model (when allowed) before any thread loads it: through our
 * downloader (resumable, sha256-checked, one download per model across processes), so
 * transformers.js itself then only reads local files.
 */
export async function fetchModelFiles(
  options: Pick<
    TransformersEmbedderOptions,
    'model' | 'modelsDir' | 'allowDownload' | 'logger' | 'endpoint'
  > & {
    dtype: OnnxDtype
  },
): Promise<void> {
  if (!options.allowDownload) {
    // Say what is missing: transformers.js, offline, fails with an unrelated message.
    const local = await localModel(options.modelsDir, options.model, options.dtype)
    if (local.missing.length > 0)
      throw new Error(
        `${options.model} is not in MODELS_DIR (${local.dir} lacks ${local.missing.join(', ')}) and downloads are off (ALLOW_MODEL_DOWNLOAD=false)`,
      )
    return
  }
  let lastReported = 0
  const fetched = await ensureTransformersModel({
    modelsDir: options.modelsDir,
    model: options.model,
    dtype: options.dtype,
    endpoint: options.endpoint ?? DEFAULT_ENDPOINT,
    onProgress: ({ file, received, total }) => {
      if (Date.now() - lastReported < 2000) return
      lastReported = Date.now()
      options.logger.info(
        { model: options.model, file, percent: Math.round((received / Math.max(total, 1)) * 100) },
        'downloading model',
      )
    },
  })
  if (fetched.length > 0) options.logger.info({ model: options.model, files: fetched }, 'model downloaded')
}

const DEFAULT_ENDPOINT = 'https://huggingface.co/'

/** Loads the model in a thread of its own: embedding never blocks this thread's event loop. */
export async function loadTransformersEmbedder(options: TransformersEmbedderOptions): Promise<Embedder> {
  const { model, dim, logger } = options
  const recipe = options.recipe ?? embeddingRecipe(model)
  await fetchModelFiles({ ...options, dtype: options.dtype ?? 'q8' })
  const init: EmbeddingInit = {
    model,
    modelsDir: options.modelsDir,
    // Already fetched above: the thread reads local files only.
    allowDownload: false,
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
    cacheKey: embeddingCacheKey({ model, dim, dtype: options.dtype ?? 'q8', recipe }),
    embedPassages: (texts) => embed(texts.map((text) => prefixes.passage + text)),
    embedQuery: async (text) => {
      const [vector] = await embed([prefixes.query + text])
      if (!vector) throw new Error('no vector returned')
      return vector
    },
    close: () => thread.close(),
  }
}
