import { join } from 'node:path'
import { createLogger, type Logger } from '@rag/log'
import type { Embedder } from '../embedder.ts'
import { loadTransformersEmbedder } from '../transformers-embedder.ts'
import { writeTinyEmbeddingModel } from './tiny-embedding-model.ts'

/**
 * A random-weight embedding model with a real tokenizer, written under `modelsDir` and loaded the
 * way the embed worker loads one (never downloading): vectors of the right shape and cost whose
 * ranking is noise, for tests that assert who found what, not how well.
 */
export async function loadTinyEmbedder({
  modelsDir,
  tokenizerDir,
  dim = 64,
  model = 'test/tiny',
  logger = createLogger({ name: 'test', level: 'silent' }),
}: {
  modelsDir: string
  tokenizerDir: string
  dim?: number
  model?: string
  logger?: Logger
}): Promise<Embedder> {
  await writeTinyEmbeddingModel({ dir: join(modelsDir, model), tokenizerDir, dim })
  return loadTransformersEmbedder({ model, dim, modelsDir, allowDownload: false, logger })
}
