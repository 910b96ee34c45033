import { randomBytes } from 'node:crypto'
import { availableParallelism } from 'node:os'
import type { BenchConfig } from '@rag/config'
import { createPool, migrate, type Pool, quoteIdentifier, startEmbeddedPostgres } from '@rag/db'
import type { Embedder } from '@rag/embeddings'
import { SEARCH_MODES, search } from '@rag/retrieval'
import { readDistractorCorpus } from './aozora-corpus.ts'
import { benchAskLatency } from './bench-ask-latency.ts'
import { agreement, exactSearch, passageAgreement } from './exact-search.ts'
import { buildVectorIndex, documentFrequencies, lexicalVectors } from './lexical-vectors.ts'
import { loadAverage } from './machine-load.ts'
import { ms, percentile } from './percentile.ts'
import { insertRealTextChunks, readRealText, realTextChunks, seeded } from './real-text-corpus.ts'

const QUERIES = 200
/** Untimed questions (another seed) through every mode before timing: see benchSize. */
const WARM_UP_QUERIES = 100
/** Questions whose top 10 is checked against the exact one (fewer at a million: each exact scan takes seconds). */
const agreementQueries = (size: number) => (size >= 500_000 ? 30 : 100)
/** As the question pipeline asks: 10 chunks, fused by weighted RRF (alpha 0.5, k 60). */
const REQUEST = { limit: 10, searchK: 10, alpha: 0.5, rrfK: 60, parents: false }
/** search() fetches this many candidates from each retriever before fusing (4× the limit). */
const FUSION_DEPTH = Math.max(REQUEST.searchK, REQUEST.limit * 4)

const load = loadAverage

async function benchSearchModes(
  pool: Pool,
  { size, realChunks }: { size: number; realChunks: number },
  queries: string[],
  embedder: Embedder,
) {
  const vectors = new Map(
    await Promise.all(queries.map(async (q) => [q, await embedder.embedQuery(q)] as const)),
  )
  for (const mode of SEARCH_MODES) {
    // Timed first, all together: exact scans in between would evict the index from the cache.
    const latencies: number[] = []
    const found = []
    for (const query of queries) {
      const started = performance.now()
      const { hits } = await search({ pool, embedder }, { ...REQUEST, query, mode })
      latencies.push(performance.now() - started)
      found.push(hits)
    }
    let agreed = 0
    let passages = 0
    for (const [i, query] of queries.slice(0, agreementQueries(size)).entries()) {
      const exact = await exactSearch(pool, {
        ...REQUEST,
        mode,
        query,
        vector: vectors.get(query) ?? [],
        depth: FUSION_DEPTH,
        corpusSize: size,
      })
      agreed += agreement(mode, found[i] ?? [], exact)
      passages += passageAgreement(found[i] ?? [], exact, realChunks)
    }
    console.log(
      `  ${size} chunks ${mode.padEnd(7)} p50 ${ms(percentile(latencies, 50))}, p95 ${ms(percentile(latencies, 95))}, ` +
        `p99 ${ms(percentile(latencies, 99))} | top-10 agreement with exact ${((100 * agreed) / agreementQueries(size)).toFixed(1)}% (${agreementQueries(size)} questions), ` +
        `by source passage ${((100 * passages) / agreementQueries(size)).toFixed(1)}% ` +
        `(goal: p95 < 50 ms, ≥ 97%) | load ${load()}`,
    )
  }
}

/**
 * `pnpm bench ask [SIZES]`: search latency per mode on real text (the corpus of `pnpm bench search`:
 * SQuAD, JaQuAD and SciFact passages, replicated with light perturbation, real questions as
 * queries, seeded) with vectors from the lexical stand-in embedder (see lexical-vectors.ts) under
 * HNSW, each mode's top 10 against its exact reference; then, on the first size, POST /ask → done
 * through the real queues: one at a time (queue overhead = total − search) and 200 at once.
 * SIZES: comma-separated chunk counts (default 10000,100000). --embedded: against the embedded
 * PGlite server `pnpm start` runs without DATABASE_URL (in memory), to compare with native.
 * --corpus DIR: no copies, distinct prose from DIR as distractors (see `pnpm bench search`).
 * --precision half,full: the vectors as stored (halfvec) and, to compare, in full precision
 * (vector, as before the half-precision upgrade): table and index sizes, build time, latency, agreement.
 */
export async function benchAsk(config: BenchConfig, args: string[] = []): Promise<void> {
  const embedded = args.includes('--embedded')
  const flagValue = (flag: string) => {
    const at = args.indexOf(flag)
    if (at >= 0 && !args[at + 1]) throw new Error(`${flag} needs a value`)
    return at >= 0 ? args[at + 1] : undefined
  }
  const corpusDir = flagValue('--corpus')
  const precisions = (flagValue('--precision') ?? 'half').split(',')
  if (precisions.some((precision) => precision !== 'half' && precision !== 'full'))
    throw new Error(`--precision takes half, full or both, got ${precisions.join(',')}`)
  const sizeArg =
    args.find((arg, i) => !arg.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? '10000,100000'
  const sizes = sizeArg.split(',').map(Number)
  if (sizes.some((size) => !Number.isInteger(size) || size < 1)) throw new Error(`bad sizes: ${sizeArg}`)
  const text = await readRealText(config.sharedDir)
  if (corpusDir) {
    const distractors = await readDistractorCorpus(corpusDir, Math.max(...sizes) * 450)
    console.log(
      `distractors from ${corpusDir}: ${distractors.files} files, ${distractors.passages.length} passages, ${(distractors.chars / 1e6).toFixed(1)}M characters; ${distractors.undecodable} undecodable files skipped`,
    )
    text.passages.push(...distractors.passages)
  }
  const base = realTextChunks(text)
  if (corpusDir && Math.max(...sizes) > base.chunks.length)
    console.log(`only ${base.chunks.length} distinct chunks: larger sizes are measured at that`)
  const { vectorOf, embedder } = lexicalVectors(
    documentFrequencies(base.chunks.map((chunk) => chunk.words)),
    base.chunks.length,
  )
  const random = seeded(11)
  const queries = Array.from(
    { length: QUERIES },
    () => text.questions[Math.floor(random() * text.questions.length)] ?? '',
  )
  const warmUp = (() => {
    const other = seeded(23)
    return Array.from(
      { length: WARM_UP_QUERIES },
      () => text.questions[Math.floor(other() * text.questions.length)] ?? '',
    )
  })()
  const server = embedded ? await startEmbeddedPostgres() : undefined
  const databaseUrl = server?.url ?? config.databaseUrl
  console.log(
    `${embedded ? 'embedded PGlite' : 'Postgres at BENCH_DATABASE_URL'}; real text: ${base.chunks.length} chunks, ${text.questions.length} questions; vectors: ` +
      `${embedder.model} (${embedder.dim} dimensions, a stand-in: no model cost); machine: ${availableParallelism()} cores, load ${load()}`,
  )
  try {
    for (const [i, size] of sizes.entries())
      for (const precision of precisions)
        await benchSize(
          corpusDir ? Math.min(size, base.chunks.length) : size,
          i === 0 && precision === precisions[0],
          precision,
        )
  } finally {
    await server?.close()
  }

  async function benchSize(size: number, first: boolean, precision: string) {
    const schema = `bench_ask_${randomBytes(3).toString('hex')}`
    const pool = createPool({ url: databaseUrl, schema, max: 8 })
    try {
      await migrate(pool, { schema, embedding: { model: embedder.model, dim: embedder.dim } })
      const started = performance.now()
      await pool.query('DROP INDEX chunks_embedding_hnsw_idx')
      if (precision === 'full')
        await pool.query(`ALTER TABLE chunks ALTER COLUMN embedding TYPE vector(${embedder.dim})`)
      await insertRealTextChunks(pool, base, { count: size, vectorOf })
      const loaded = performance.now()
      await buildVectorIndex(pool, embedded ? '512MB' : '4GB', precision === 'full' ? 'vector' : 'halfvec')
      const sizes = (
        await pool.query<{ chunks: string; index: string; vectors: string }>(
          `SELECT pg_size_pretty(pg_total_relation_size('chunks')) AS chunks,
                  pg_size_pretty(pg_relation_size('chunks_embedding_hnsw_idx')) AS index,
                  pg_size_pretty(sum(pg_column_size(embedding))) AS vectors FROM chunks`,
        )
      ).rows[0]
      console.log(
        `${size} ${corpusDir ? 'distinct ' : ''}chunks of real text (${Math.ceil(size / 20)} documents), vectors in ${precision} precision: loaded with their vectors in ${((loaded - started) / 1000).toFixed(1)} s, ` +
          `HNSW index built in ${((performance.now() - loaded) / 1000).toFixed(1)} s; chunks table ${sizes?.chunks} (vectors ${sizes?.vectors}), HNSW index ${sizes?.index}`,
      )
      // A serving database has its indexes in memory; right after the HNSW build it does not, and
      // the first mode timed paid for that (1M chunks: keyword p95 54 ms cold, hybrid — timed
      // after it, keyword included — 48 ms). Other questions than the timed ones, so none of
      // theirs is cached in advance.
      for (const query of warmUp)
        for (const mode of SEARCH_MODES) await search({ pool, embedder }, { ...REQUEST, query, mode })
      await benchSearchModes(pool, { size, realChunks: base.chunks.length }, queries, embedder)
      if (first) await benchAskLatency(pool, config, queries)
    } finally {
      await pool.query(`DROP SCHEMA ${quoteIdentifier(schema)} CASCADE`)
      await pool.end()
    }
  }
}
