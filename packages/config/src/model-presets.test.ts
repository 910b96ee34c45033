import { describe, expect, it } from 'vitest'
import { embeddingRecipe } from './model-presets.ts'
import { workerConfigs } from './processes.ts'

// The embed worker reads the model settings.
const workerConfig = workerConfigs['worker-embed']

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
        EMBEDDING_DIM: '768',
      }),
    ).models
    expect(embedding.dim).toBe(768)
    expect(embedding.recipe).toEqual({
      pooling: 'cls',
      queryPrefix: 'Represent this query: ',
      passagePrefix: '',
    })
    expect(embedding.dtype).toBe('fp32')
  })

  it('a prefix that lost its trailing space (an unquoted .env value) stops the process, saying to quote it', () => {
    expect(() => workerConfig.parse(env({ EMBEDDING_PASSAGE_PREFIX: 'passage:' }))).toThrow(
      /EMBEDDING_PASSAGE_PREFIX.*ends with a colon but no space.*quote it/,
    )
    expect(() => workerConfig.parse(env({ EMBEDDING_QUERY_PREFIX: '検索クエリ：' }))).toThrow(
      /EMBEDDING_QUERY_PREFIX/,
    )
  })

  it('a bad pooling or dtype stops the process naming the variable', () => {
    expect(() => workerConfig.parse(env({ EMBEDDING_POOLING: 'max' }))).toThrow(
      /EMBEDDING_POOLING: must be one of/,
    )
    expect(() => workerConfig.parse(env({ RERANKER_DTYPE: 'int3' }))).toThrow(
      /RERANKER_DTYPE: must be one of/,
    )
  })

  it('a preset brings its size and weights; a model outside the presets must say its size', () => {
    const ruri = workerConfig.parse(env({ EMBEDDING_MODEL: 'cl-nagoya/ruri-v3-30m' })).models
    expect(ruri.embedding).toMatchObject({ dim: 256, dtype: 'fp32' })
    expect(ruri.embedding.recipe.passagePrefix).toBe('検索文書: ')
    const defaults = workerConfig.parse(env({})).models
    expect(defaults.embedding).toMatchObject({ model: 'Xenova/multilingual-e5-small', dim: 384, dtype: 'q8' })
    expect(defaults.rerankerDtype).toBe('fp32')
    expect(() => workerConfig.parse(env({ EMBEDDING_MODEL: 'someone/unknown-model' }))).toThrow(
      /EMBEDDING_DIM: required for someone\/unknown-model \(not a preset\)/,
    )
    // Keyword only: no size needed.
    expect(() => workerConfig.parse(env({ EMBEDDING_MODEL: 'none' }))).not.toThrow()
  })
})
