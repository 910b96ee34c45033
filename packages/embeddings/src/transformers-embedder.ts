import { resolve } from 'node:path'
import { env, type FeatureExtractionPipeline, pipeline } from '@huggingface/transformers'
import type { Logger } from '@rag/log'
import type { Embedder } from './embedder.ts'

export interface TransformersEmbedderOptions {
  /** Hub id (downloaded to modelsDir on first use) or a folder under modelsDir. */
  model: string
  /** Expected output size; a model that disagrees is refused (the database column has this size). */
  dim: number
  modelsDir: string
  allowDownload: boolean
  logger: Logger
  batchSize?: number
  dtype?: 'fp32' | 'q8'
}

/** e5 models were trained with these markers; others take the text as it is. */
export function prefixesFor(model: string): { passage: string; query: string } {
  return /(^|[/-])(multilingual-)?e5/i.test(model)
    ? { passage: 'passage: ', query: 'query: ' }
    : { passage: '', query: '' }
}

/** transformers.js progress callback: download progress on first start, logged at most every 2 s. */
export function downloadProgressLogger(model: string, logger: Logger) {
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

/** Points transformers.js at our models folder; downloads only when allowed. */
export function configureModelCache(modelsDir: string, allowDownload: boolean) {
  env.localModelPath = resolve(modelsDir)
  env.cacheDir = resolve(modelsDir)
  env.allowLocalModels = true
  env.allowRemoteModels = allowDownload
}

export async function loadTransformersEmbedder(options: TransformersEmbedderOptions): Promise<Embedder> {
  const { model, dim, logger, batchSize = 16 } = options
  configureModelCache(options.modelsDir, options.allowDownload)
  const extractor = (await pipeline('feature-extraction', model, {
    dtype: options.dtype ?? 'q8',
    progress_callback: downloadProgressLogger(model, logger),
  })) as FeatureExtractionPipeline
  const prefixes = prefixesFor(model)

  const embed = async (texts: string[]): Promise<number[][]> => {
    const vectors: number[][] = []
    for (let i = 0; i < texts.length; i += batchSize) {
      const output = await extractor(texts.slice(i, i + batchSize), { pooling: 'mean', normalize: true })
      const rows = output.tolist() as number[][]
      for (const row of rows) {
        if (row.length !== dim) {
          throw new Error(`EMBEDDING_DIM is ${dim} but ${model} produces ${row.length}-dimensional vectors`)
        }
        vectors.push(row)
      }
    }
    return vectors
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
  }
}
