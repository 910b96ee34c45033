import { describe, expect, it } from 'vitest'
import { embeddingRecipe } from './model-presets.ts'
import { workerConfig } from './processes.ts'

const env = (values: Record<string, string>) => ({ DATABASE_URL: 'postgres://x@127.0.0.1/x', ...values })

describe('embedding recipes', () => {
  it('follow the model family: e5 prefixes, ruri-v3 Japanese prefixes, bge-m3 CLS pooling', () => {
    expect(embeddingRecipe('Xenova/multilingual-e5-base')).toEqual({
      pooling: 'mean',
      queryPrefix: 'query: ',
      passagePrefix: 'passage: ',
    })
    expect(embeddingRecipe('cl-nagoya/ruri-v3-130m')).toMatchObject({ queryPrefix: '検索クエリ: ' })
    expect(embeddingRecipe('Xenova/bge-m3')).toEqual({ pooling: 'cls', queryPrefix: '', passagePrefix: '' })
    expect(embeddingRecipe('someone/unknown-model')).toEqual({
      pooling: 'mean',
      queryPrefix: '',
      passagePrefix: '',
    })
  })

  it('an unknown model works with explicit settings, prefixes kept exactly (trailing space)', () => {
    const { embedding } = workerConfig.parse(
      env({
        EMBEDDING_MODEL: 'someone/unknown-model',
        EMBEDDING_POOLING: 'cls',
        EMBEDDING_QUERY_PREFIX: 'Represent this query: ',
        EMBEDDING_DTYPE: 'fp32',
      }),
    ).models
    expect(embedding.recipe).toEqual({
      pooling: 'cls',
      queryPrefix: 'Represent this query: ',
      passagePrefix: '',
    })
    expect(embedding.dtype).toBe('fp32')
  })

  it('a bad pooling or dtype stops the process naming the variable', () => {
    expect(() => workerConfig.parse(env({ EMBEDDING_POOLING: 'max' }))).toThrow(
      /EMBEDDING_POOLING: must be one of/,
    )
    expect(() => workerConfig.parse(env({ RERANKER_DTYPE: 'int3' }))).toThrow(
      /RERANKER_DTYPE: must be one of/,
    )
  })
})
