import { randomBytes } from 'node:crypto'
import type { BenchConfig } from '@rag/config'
import { createPool, migrate, type Pool, quoteIdentifier } from '@rag/db'
import type { Embedder } from '@rag/embeddings'
import { createTestGateway, keywordOnlySearch } from '@rag/http-api/testing'
import { createLogger } from '@rag/log'
import { startQuestionWorkers } from '@rag/questions/testing'
import { createProducer } from '@rag/queue'
import { dropPrefix } from '@rag/queue/testing'
import { keywordSearch, reciprocalRankFusion, type SearchMode, search } from '@rag/retrieval'
import { toSql } from 'pgvector'
import { ms, percentile } from './percentile.ts'
import { insertSyntheticChunks, syntheticQueries } from './synthetic-chunks.ts'

const DIM = 384
const QUERIES = 200
const logger = createLogger({ name: 'bench', level: 'warn' })

/**
 * Vectors with the cluster structure real embeddings have (texts about one topic lie close): 256
 * random centroids, each chunk one of them plus noise. Uniform random vectors would be the worst
 * case for HNSW and unlike any embedding model's output. The index is built once, after filling.
 */
export async function fillVectors(pool: Pool): Promise<void> {
  await pool.query('DROP INDEX IF EXISTS chunks_embedding_hnsw_idx')
  await pool.query(
    `CREATE TABLE centroids AS
       SELECT g AS c, ARRAY(SELECT random() - 0.5 FROM generate_series(1, ${DIM}) WHERE g >= 0) AS v
         FROM generate_series(0, 255) g`,
  )
  await pool.query(
    `UPDATE chunks SET embedding = v.e::vector, embedding_status = 'done'
       FROM (SELECT ch.id, ARRAY(SELECT x + (random() - 0.5) * 0.6 FROM unnest(ce.v) AS x) AS e
               FROM chunks ch JOIN centroids ce ON ce.c = ch.id % 256) v
      WHERE v.id = chunks.id`,
  )
  await pool.query('DROP TABLE centroids')
  await pool.query(`SET maintenance_work_mem = '1GB'`)
  await pool.query(
    'CREATE INDEX chunks_embedding_hnsw_idx ON chunks USING hnsw (embedding vector_cosine_ops)',
  )
  await pool.query('ANALYZE chunks')
}

/** Query vectors near stored ones (a stored vector plus noise), so each query has true neighbours. */
async function queryVectors(pool: Pool, queries: string[]): Promise<Map<string, number[]>> {
  const { rows } = await pool.query<{ embedding: string }>(
    `SELECT embedding::text FROM chunks ORDER BY random() LIMIT ${queries.length}`,
  )
  return new Map(
    queries.map((query, i) => {
      const base = JSON.parse(rows[i % rows.length]?.embedding ?? '[]') as number[]
      return [query, base.map((v) => v + (Math.random() - 0.5) * 0.2)]
    }),
  )
}

async function exactVector(pool: Pool, vector: number[]): Promise<string[]> {
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    await client.query('SET LOCAL enable_indexscan = off')
    const { rows } = await client.query<{ id: string }>(
      'SELECT id::text FROM chunks ORDER BY embedding <=> $1::vector LIMIT 10',
      [toSql(vector)],
    )
    await client.query('COMMIT')
    return rows.map((row) => row.id)
  } finally {
    client.release()
  }
}

const overlap = (fast: string[], exact: string[]) =>
  fast.filter((id) => exact.includes(id)).length / Math.max(1, exact.length)

async function benchSearchModes(pool: Pool, size: number) {
  const queries = syntheticQueries(QUERIES, 50_000)
  const vectors = await queryVectors(pool, queries)
  const embedder: Embedder = {
    model: 'bench/synthetic',
    dim: DIM,
    embedPassages: async () => [],
    embedQuery: async (text) => vectors.get(text) ?? [],
  }
  const request = { limit: 10, searchK: 10, alpha: 0.5, rrfK: 60, parents: false }
  for (const mode of ['keyword', 'vector', 'hybrid'] as SearchMode[]) {
    // Timed first, all together: exact scans in between would evict the index from the cache.
    const latencies: number[] = []
    const found: string[][] = []
    for (const query of queries) {
      const started = performance.now()
      const { hits } = await search({ pool, embedder }, { ...request, query, mode })
      latencies.push(performance.now() - started)
      found.push(hits.map((hit) => hit.chunkId))
    }
    const exactLatencies: number[] = []
    let agreement = 0
    for (const [i, query] of queries.slice(0, 50).entries()) {
      // The exact answer: every chunk scored (BM25 over all candidates, a sequential vector scan).
      const exactStarted = performance.now()
      const vector = vectors.get(query) ?? []
      const [exactKeyword, exactVectorIds] = await Promise.all([
        mode === 'vector' ? [] : keywordSearch(pool, query, { limit: 10, maxCandidates: size }),
        mode === 'keyword' ? [] : exactVector(pool, vector),
      ])
      exactLatencies.push(performance.now() - exactStarted)
      const exact =
        mode === 'keyword'
          ? exactKeyword.map((item) => item.chunkId)
          : mode === 'vector'
            ? exactVectorIds
            : reciprocalRankFusion(
                [
                  { items: exactVectorIds.map((chunkId) => ({ chunkId, score: 0 })), weight: 0.5 },
                  { items: exactKeyword, weight: 0.5 },
                ],
                60,
              )
                .slice(0, 10)
                .map((item) => item.chunkId)
      agreement += overlap(found[i] ?? [], exact)
    }
    console.log(
      `  ${size} chunks ${mode.padEnd(7)} p50 ${ms(percentile(latencies, 50))}, p95 ${ms(percentile(latencies, 95))}` +
        ` | exact scan p50 ${ms(percentile(exactLatencies, 50))} | top-10 overlap with exact ${((100 * agreement) / 50).toFixed(1)}%`,
    )
  }
}

/** POST /ask → done (extractive, keyword) through the real queues and in-process question workers. */
async function benchAskLatency(pool: Pool, config: BenchConfig) {
  const prefix = `bench-ask-${randomBytes(3).toString('hex')}`
  const producer = await createProducer({ url: config.redisUrl, prefix })
  const retrieval = { ...keywordOnlySearch.retrieval, refusalThreshold: 0, rerankRefusalThreshold: 0 }
  const workers = startQuestionWorkers({
    pool,
    producer,
    logger,
    redisUrl: config.redisUrl,
    prefix,
    retrieval,
  })
  const gateway = await createTestGateway(
    { pool, producer, logger, redisUrl: config.redisUrl, prefix },
    { uploadDir: '/nonexistent', maxBytes: 1, maxFiles: 1 },
    { retrieval },
  )
  const askOnce = async (question: string) => {
    const started = performance.now()
    const response = await gateway.app.request('/ask', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question, options: { mode: 'keyword', answer: 'extractive', rerank: false } }),
    })
    const { id } = (await response.json()) as { id: string }
    // Followed through its event stream (ends after `done`), as the web page does: no polling load.
    await (await gateway.app.request(`/ask/${id}/events`)).text()
    return performance.now() - started
  }
  try {
    const questions = syntheticQueries(QUERIES, 50_000)
    const sequential: number[] = []
    for (const question of questions.slice(0, 100)) sequential.push(await askOnce(question))
    console.log(
      `  one at a time: p50 ${ms(percentile(sequential, 50))}, p95 ${ms(percentile(sequential, 95))} (POST /ask → done event)`,
    )
    const started = performance.now()
    const concurrent = await Promise.all(questions.map(askOnce))
    const seconds = (performance.now() - started) / 1000
    console.log(
      `  ${questions.length} at once: ${(questions.length / seconds).toFixed(1)} questions/s, p50 ${ms(percentile(concurrent, 50))}, p95 ${ms(percentile(concurrent, 95))}`,
    )
  } finally {
    await Promise.all(workers.map((worker) => worker.close()))
    await gateway.close()
    await producer.close()
    // The run's queues, question events and rate-limit counters: nothing is left in Redis.
    await dropPrefix(config.redisUrl, prefix)
  }
}

/**
 * `pnpm bench ask`: /search latency per mode at 10k and 100k chunks (synthetic Zipf terms and
 * random 384-dimensional vectors under HNSW) against exact scans, and POST /ask → done latency in
 * extractive mode (the queue overhead).
 */
export async function benchAsk(config: BenchConfig): Promise<void> {
  for (const size of [10_000, 100_000]) {
    const schema = `bench_ask_${randomBytes(3).toString('hex')}`
    const pool = createPool({ url: config.databaseUrl, schema, max: 8 })
    try {
      await migrate(pool, { schema, embedding: { model: 'bench/synthetic', dim: DIM } })
      const loadStarted = performance.now()
      await insertSyntheticChunks(pool, { count: size })
      await fillVectors(pool)
      console.log(
        `${size} chunks loaded and indexed in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
      )
      await benchSearchModes(pool, size)
      if (size === 10_000) await benchAskLatency(pool, config)
    } finally {
      await pool.query(`DROP SCHEMA ${quoteIdentifier(schema)} CASCADE`)
      await pool.end()
    }
  }
}
