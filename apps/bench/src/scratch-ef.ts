import { benchConfig, processEnvironment } from '@rag/config'
import { createPool, migrate } from '@rag/db'
import { toSql } from 'pgvector'
import { exactVectorSearch } from './exact-search.ts'
import { documentFrequencies, fillLexicalVectors, lexicalVectors } from './lexical-vectors.ts'
import { insertRealTextChunks, readRealText, realTextChunkTerms, seeded } from './real-text-corpus.ts'

const config = benchConfig.parse(processEnvironment()).bench
const size = Number(process.argv[2] ?? 10000)
const schema = `scratch_ef_${size}`
const pool = createPool({ url: config.databaseUrl, schema, max: 2 })
const text = await readRealText(config.sharedDir)
const base = realTextChunkTerms(text)
const { vectorOf, embedder } = lexicalVectors(documentFrequencies(base), base.length)
const exists = (await pool.query(`SELECT 1 FROM pg_namespace WHERE nspname = $1`, [schema])).rowCount
if (!exists) {
  await migrate(pool, { schema, embedding: { model: embedder.model, dim: embedder.dim } })
  await insertRealTextChunks(pool, base, { count: size })
  await fillLexicalVectors(pool, vectorOf)
}
const random = seeded(11)
const queries = Array.from(
  { length: 100 },
  () => text.questions[Math.floor(random() * text.questions.length)] ?? '',
)
const vectors = await Promise.all(queries.map((q) => embedder.embedQuery(q)))
const exact = []
for (const v of vectors) exact.push(await exactVectorSearch(pool, v, 10))
for (const ef of (process.argv[3] ?? '40,100,160,320,640').split(',').map(Number)) {
  let agree = 0
  const lat: number[] = []
  for (const [i, v] of vectors.entries()) {
    const c = await pool.connect()
    await c.query('BEGIN')
    await c.query(`SET LOCAL hnsw.ef_search = ${ef}`)
    const t = performance.now()
    const { rows } = await c.query(
      `SELECT id::text AS "chunkId", (1 - c.distance)::float8 AS score FROM (SELECT id, embedding <=> $1::vector AS distance FROM chunks ORDER BY embedding <=> $1::vector LIMIT ${Math.max(40, ef)}) c ORDER BY c.distance LIMIT 10`,
      [toSql(v)],
    )
    lat.push(performance.now() - t)
    await c.query('COMMIT')
    c.release()
    const kth = exact[i]?.at(-1)?.score ?? 0
    agree += rows.filter((r) => r.score >= kth - 1e-6).length / 10
  }
  lat.sort((a, b) => a - b)
  console.log(`ef ${ef}: recall ${agree.toFixed(1)}% p50 ${lat[50]?.toFixed(1)} p95 ${lat[95]?.toFixed(1)}`)
}
await pool.end()
