import { describe, expect, it } from 'vitest'
import { embeddingCacheKey } from './embedding-cache-key.ts'

const e5 = {
  model: 'Xenova/multilingual-e5-small',
  dim: 384,
  dtype: 'q8',
  recipe: { pooling: 'mean', passagePrefix: 'passage: ' },
} as const

describe('the embedding cache key (model and the settings that change a passage vector)', () => {
  it('changes with every setting that changes a passage vector, and only with those', () => {
    const base = embeddingCacheKey(e5)
    expect(base).toMatch(/^Xenova\/multilingual-e5-small@[0-9a-f]{12}$/)
    expect(embeddingCacheKey({ ...e5 })).toBe(base)
    const variants = [
      { ...e5, dtype: 'fp32' },
      { ...e5, dim: 256 },
      { ...e5, recipe: { ...e5.recipe, pooling: 'cls' as const } },
      { ...e5, recipe: { ...e5.recipe, passagePrefix: 'passage:' } },
      { ...e5, model: 'intfloat/multilingual-e5-small' },
    ]
    const keys = new Set(variants.map(embeddingCacheKey))
    expect(keys.size).toBe(variants.length)
    expect(keys.has(base)).toBe(false)
  })
})
