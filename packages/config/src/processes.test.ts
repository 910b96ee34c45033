import { describe, expect, it } from 'vitest'
import { ConfigError } from './define-config.ts'
import { benchConfig, gatewayConfig, supervisorConfig, workerConfigs } from './processes.ts'

const db = { DATABASE_URL: 'postgres://u@localhost:5432/x' }

function problemsOf(fn: () => unknown) {
  try {
    fn()
  } catch (error) {
    if (error instanceof ConfigError) return error
    throw error
  }
  throw new Error('expected a ConfigError')
}

describe('process configuration', () => {
  it('applies the documented defaults', () => {
    expect(workerConfigs['worker-chunk'].parse(db).chunking).toEqual({
      size: 500,
      overlap: 100,
      parentMaxChars: 2000,
    })
    const config = workerConfigs['worker-llm'].parse(db)
    expect(config.retrieval.searchK).toBe(10)
    expect(config.retrieval.rerankTopK).toBe(3)
    expect(config.redis.url).toBe('redis://127.0.0.1:6379')
    expect(config.models.embedding).toEqual({
      model: 'Xenova/multilingual-e5-small',
      dim: 384,
      recipe: { pooling: 'mean', queryPrefix: 'query: ', passagePrefix: 'passage: ' },
      dtype: 'q8',
    })
    expect(config.log.level).toBe('info')
  })

  it('listens on PORT when GATEWAY_PORT is not set (as hosting platforms set it), GATEWAY_PORT first', () => {
    expect(gatewayConfig.parse(db).gateway.port).toBe(3000)
    expect(gatewayConfig.parse({ ...db, PORT: '8080' }).gateway.port).toBe(8080)
    expect(gatewayConfig.parse({ ...db, PORT: '8080', GATEWAY_PORT: '3001' }).gateway.port).toBe(3001)
    expect(gatewayConfig.parse({ ...db, GATEWAY_PORT: '0' }).gateway.port).toBe(0)
    expect(problemsOf(() => gatewayConfig.parse({ ...db, PORT: 'http' })).message).toContain(
      'PORT: must be an integer, got "http"',
    )
  })

  it('benchmarks on DATABASE_URL and REDIS_URL as every command reads them, unless BENCH_* say otherwise', () => {
    expect(benchConfig.parse({}).bench).toMatchObject({
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/test',
      redisUrl: 'redis://127.0.0.1:6379',
    })
    const env = { DATABASE_URL: 'postgres://u@db:5432/rag', REDIS_URL: 'redis://cache:6379' }
    expect(benchConfig.parse(env).bench).toMatchObject({
      databaseUrl: env.DATABASE_URL,
      redisUrl: env.REDIS_URL,
    })
    expect(benchConfig.parse({ ...env, BENCH_DATABASE_URL: 'postgres://u@other/x' }).bench.databaseUrl).toBe(
      'postgres://u@other/x',
    )
    // Its queues sit under the installation's prefix (benchPrefix): `team-a-bench-…`.
    expect(benchConfig.parse({}).bench.queuePrefix).toBe('rag')
    expect(benchConfig.parse({ QUEUE_PREFIX: 'team-a' }).bench.queuePrefix).toBe('team-a')
    expect(() => benchConfig.parse({ QUEUE_PREFIX: 'team a' })).toThrow(/QUEUE_PREFIX/)
  })

  it('names a non-numeric variable and what it got', () => {
    const error = problemsOf(() => workerConfigs['worker-chunk'].parse({ ...db, CHUNK_SIZE: 'abc' }))
    expect(error.message).toContain('CHUNK_SIZE: must be an integer, got "abc"')
    expect(error.message).toContain('Invalid configuration for worker-chunk')
  })

  it('rejects an overlap that is not smaller than the chunk size', () => {
    const error = problemsOf(() =>
      workerConfigs['worker-chunk'].parse({ ...db, CHUNK_SIZE: '200', CHUNK_OVERLAP: '200' }),
    )
    expect(error.problems).toEqual([
      { variable: 'CHUNK_OVERLAP', message: 'must be smaller than CHUNK_SIZE (200), got 200' },
    ])
  })

  it('reports every bad variable at once', () => {
    const error = problemsOf(() =>
      gatewayConfig.parse({
        ...db,
        GATEWAY_PORT: '70000',
        LOG_LEVEL: 'loud',
        FUSION_ALPHA: '1.5',
        REDIS_URL: 'http://x',
      }),
    )
    expect(error.problems.map((p) => p.variable).sort()).toEqual([
      'FUSION_ALPHA',
      'GATEWAY_PORT',
      'LOG_LEVEL',
      'REDIS_URL',
    ])
  })

  it('accepts only true/false/1/0 for booleans', () => {
    expect(supervisorConfig.parse({ SEED_SAMPLE_DATA: '0' }).supervisor.seedSampleData).toBe(false)
    const error = problemsOf(() => supervisorConfig.parse({ SEED_SAMPLE_DATA: 'yes' }))
    expect(error.problems[0]?.variable).toBe('SEED_SAMPLE_DATA')
  })

  it('builds the database URL from DB_* parts, and requires one for workers', () => {
    const config = workerConfigs['worker-llm'].parse({
      DB_HOST: 'db',
      DB_USER: 'rag',
      DB_PASSWORD: 'p@ss',
      DB_NAME: 'rag',
    })
    expect(config.database.url).toBe('postgres://rag:p%40ss@db:5432/rag')
    expect(problemsOf(() => workerConfigs['worker-llm'].parse({})).problems[0]?.variable).toBe('DATABASE_URL')
    // The supervisor falls back to the embedded database instead.
    expect(supervisorConfig.parse({}).database.url).toBeUndefined()
  })

  it('switches models off with "none"', () => {
    const config = workerConfigs['worker-llm'].parse({
      ...db,
      EMBEDDING_MODEL: 'none',
      LLM_MODEL: 'None',
      RERANKER_MODEL: 'none',
    })
    expect(config.models.embedding.model).toBeNull()
    expect(config.models.llm).toBeNull()
    expect(config.models.reranker).toBeNull()
  })

  it('rejects RERANK_TOP_K above SEARCH_K', () => {
    const error = problemsOf(() =>
      workerConfigs['worker-retrieve'].parse({ ...db, SEARCH_K: '2', RERANK_TOP_K: '3' }),
    )
    expect(error.problems[0]?.variable).toBe('RERANK_TOP_K')
  })

  it('gives each worker process its own schema: a bad setting of another stage does not stop it', () => {
    const badLlm = { ...db, LLM_MAX_TOKENS: 'lots' }
    expect(() => workerConfigs['worker-parse'].parse(badLlm)).not.toThrow()
    expect(problemsOf(() => workerConfigs['worker-llm'].parse(badLlm)).message).toMatch(
      /Invalid configuration for worker-llm:\n {2}LLM_MAX_TOKENS: must be an integer/,
    )
  })
})
