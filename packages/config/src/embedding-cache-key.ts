import { createHash } from 'node:crypto'
import type { EmbeddingRecipe } from './model-presets.ts'

/**
 * How passages become input to the model. Raised when that changes for the same settings (2: a
 * passage longer than the model's window keeps its closing separator), so vectors made the old
 * way are not taken for new ones.
 */
const PASSAGE_INPUT_VERSION = 2

/**
 * What makes two passage vectors comparable: the model and every setting that changes a passage's
 * vector (weights dtype, pooling, passage prefix, size). The embedding cache is keyed by it, so
 * changing EMBEDDING_PASSAGE_PREFIX (or the pooling, or the dtype) embeds again instead of
 * reusing vectors made otherwise.
 */
export function embeddingCacheKey(embedding: {
  model: string
  dim: number
  dtype: string
  recipe: Pick<EmbeddingRecipe, 'pooling' | 'passagePrefix'>
}): string {
  const settings = JSON.stringify([
    embedding.dtype,
    embedding.recipe.pooling,
    embedding.recipe.passagePrefix,
    embedding.dim,
    PASSAGE_INPUT_VERSION,
  ])
  return `${embedding.model}@${createHash('sha256').update(settings).digest('hex').slice(0, 12)}`
}
