import { resolve } from 'node:path'

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

/**
 * Points transformers.js at our models folder and hub; downloads only when allowed. Imported here,
 * not at the top: every process that imports @rag/embeddings (each ingestion worker, for the
 * embedding recipe) would otherwise load transformers.js and onnxruntime (~0.5 s, ~50 MB) unused.
 */
export async function configureModelCache(modelsDir: string, allowDownload: boolean, endpoint?: string) {
  const { env } = await import('@huggingface/transformers')
  env.localModelPath = resolve(modelsDir)
  env.cacheDir = resolve(modelsDir)
  env.allowLocalModels = true
  env.allowRemoteModels = allowDownload
  if (endpoint) env.remoteHost = endpoint
}
