import { randomBytes } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { parseArgs } from 'node:util'
import type { BenchConfig } from '@rag/config'
import {
  createPool,
  embeddingColumnType,
  migrate,
  type Pool,
  quoteIdentifier,
  startEmbeddedPostgres,
  vectorIndexOptions,
} from '@rag/db'
import { SEARCH_MODES, search } from '@rag/retrieval'
import { benchAskLatency } from './bench-ask-latency.ts'
import { bulkLoad, settleLoadedTables } from './bulk-load.ts'
import { distinctChunks, distinctCount, distractorCorpus } from './distinct-corpus.ts'
import { buildVectorIndex, documentFrequencies, lexicalVectors } from './lexical-vectors.ts'
import { loadAverage } from './machine-load.ts'
import {
  type ChunkToStore,
  perturbedCopies,
  readRealText,
  realTextChunks,
  seeded,
  storeChunks,
} from './real-text-corpus.ts'
import {
  exactReferences,
  type ModeTiming,
  reportModeTiming,
  SEARCH_REQUEST,
  timeSearchModes,
} from './search-mode-timings.ts'

const QUERIES = 200
/** Untimed questions (another seed) through every mode before timing: see benchSize. */
const WARM_UP_QUERIES = 100
/** Questions whose top 10 is checked against the exact one (fewer at a million: each exact scan takes seconds). */
const agreementQueries = (size: number) => (size >= 500_000 ? 30 : 100)
const load = loadAverage

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
 * (vector, as before the half-precision upgrade): table and index sizes, build time, latency, agreement;
 * loaded once, the column converted between them. --repeat N: the timed pass N times on each build.
 * --keep: the loaded schema is kept (its name printed); --schema NAME measures a kept one again
 * without loading it (a million chunks take 20 minutes to load and 10 to index): its HNSW index is
 * reused when it is of the precision asked for, and the schema is kept.
 */
export async function benchAsk(config: BenchConfig, args: string[] = []): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      embedded: { type: 'boolean', default: false },
      corpus: { type: 'string' },
      schema: { type: 'string' },
      keep: { type: 'boolean', default: false },
      precision: { type: 'string', default: 'half' },
      repeat: { type: 'string', default: '1' },
    },
  })
  const { embedded, corpus: corpusDir, schema: reuse } = values
  if (reuse && !/^bench_ask_[0-9a-f]{6}$/.test(reuse))
    throw new Error(`--schema takes a schema a --keep run printed (bench_ask_xxxxxx), got ${reuse}`)
  const keep = values.keep || reuse !== undefined
  const precisions = values.precision.split(',')
  const repeat = Number(values.repeat)
  if (!Number.isInteger(repeat) || repeat < 1) throw new Error(`--repeat takes a count, got ${values.repeat}`)
  if (precisions.some((precision) => precision !== 'half' && precision !== 'full'))
    throw new Error(`--precision takes half, full or both, got ${precisions.join(',')}`)
  if (positionals.length > 1) throw new Error(`one list of sizes, got ${positionals.join(' ')}`)
  const sizeArg = positionals[0] ?? '10000,100000'
  const sizes = sizeArg.split(',').map(Number)
  if (sizes.some((size) => !Number.isInteger(size) || size < 1)) throw new Error(`bad sizes: ${sizeArg}`)
  const text = await readRealText(config.sharedDir)
  const base = realTextChunks(text)
  const corpus = corpusDir
    ? await distractorCorpus(config, corpusDir, Math.max(...sizes) - base.chunks.length)
    : undefined
  const distinct = corpus ? distinctCount(base, corpus) : Number.POSITIVE_INFINITY
  if (Math.max(...sizes) > distinct)
    console.log(`only ${distinct} distinct chunks: larger sizes are measured at that`)
  const source = (): AsyncIterable<ChunkToStore> | Iterable<ChunkToStore> =>
    corpus ? distinctChunks(base, corpus) : perturbedCopies(base)
  // The stand-in embedder weighs words by their document frequency in the corpus searched: over
  // the largest size's chunks (distinct), or the real ones (copies keep their shape).
  const frequencies = corpus
    ? await streamedFrequencies(distinctChunks(base, corpus), Math.min(Math.max(...sizes), distinct))
    : { documents: documentFrequencies(base.chunks.map((chunk) => chunk.words)), count: base.chunks.length }
  const { vectorOf, embedder } = lexicalVectors(frequencies.documents, frequencies.count)
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
    for (const [i, size] of sizes.entries()) await benchSize(Math.min(size, distinct), i === 0)
  } finally {
    await server?.close()
  }

  async function benchSize(size: number, first: boolean) {
    const schema = reuse ?? `bench_ask_${randomBytes(3).toString('hex')}`
    const pool = createPool({ url: databaseUrl, schema, max: 8 })
    try {
      // Loaded once; each precision after the first converts the column and builds its own index.
      let stored = 'half'
      let indexed = false
      const storeAs = async (precision: string) => {
        if (precision === stored) return
        await pool.query('DROP INDEX IF EXISTS chunks_embedding_hnsw_idx')
        await pool.query(
          `ALTER TABLE chunks ALTER COLUMN embedding TYPE ${precision === 'full' ? 'vector' : 'halfvec'}(${embedder.dim})`,
        )
        stored = precision
        indexed = false
      }
      if (reuse) {
        const kept = await keptSchema(pool, reuse)
        if (kept.chunks !== size)
          throw new Error(`${reuse} holds ${kept.chunks} chunks, not ${size}: ask for that size`)
        ;({ stored, indexed } = kept)
        console.log(`${size} chunks kept in ${reuse} (${stored} precision${indexed ? ', indexed' : ''})`)
      } else {
        await migrate(pool, { schema, embedding: { model: embedder.model, dim: embedder.dim } })
        const started = performance.now()
        await pool.query('DROP INDEX chunks_embedding_hnsw_idx')
        await storeAs(precisions[0] ?? 'half')
        await bulkLoad(pool, () => storeChunks(pool, source(), { count: size, vectorOf }), { embedded })
        console.log(
          `${size} ${corpusDir ? 'distinct ' : ''}chunks of real text (${Math.ceil(size / 20)} documents) loaded with their vectors in ${((performance.now() - started) / 1000).toFixed(1)} s`,
        )
      }
      const server = await pool.query<{ buffers: string; jit: string }>(
        `SELECT current_setting('shared_buffers') AS buffers, current_setting('jit') AS jit`,
      )
      console.log(`  Postgres shared_buffers ${server.rows[0]?.buffers}, jit ${server.rows[0]?.jit}`)
      for (const [p, precision] of precisions.entries()) {
        const converting = performance.now()
        await storeAs(precision)
        const built = performance.now()
        const building = !indexed
        if (building)
          await buildVectorIndex(
            pool,
            embedded ? '512MB' : '4GB',
            precision === 'full' ? 'vector' : 'halfvec',
          )
        indexed = true
        const options = await vectorIndexOptions(pool)
        const indexReport = `(m ${options?.m}, ef_construction ${options?.efConstruction}) ${
          building
            ? `built in ${((performance.now() - built) / 1000).toFixed(1)} s`
            : 'kept from the run that built it'
        }`
        const sizes = (
          await pool.query<{ chunks: string; index: string; vectors: string; total: string }>(
            `SELECT pg_size_pretty(pg_total_relation_size('chunks')) AS chunks,
                    pg_size_pretty(pg_relation_size('chunks_embedding_hnsw_idx')) AS index,
                    pg_size_pretty(sum(pg_column_size(embedding))) AS vectors,
                    pg_size_pretty(pg_total_relation_size('chunks') + pg_total_relation_size('sections')
                      + pg_total_relation_size('documents') + pg_total_relation_size('term_stats')) AS total FROM chunks`,
          )
        ).rows[0]
        console.log(
          `  vectors in ${precision} precision${p > 0 ? ` (column converted in ${((built - converting) / 1000).toFixed(1)} s)` : ''}: ` +
            `HNSW index ${indexReport}; chunks table ${sizes?.chunks} (vectors ${sizes?.vectors}), ` +
            `HNSW index ${sizes?.index}; all tables with indexes ${sizes?.total} | load ${load()}`,
        )
        console.log(`  tables ${await settleLoadedTables(pool)} | load ${load()}`)
        // A serving database has its indexes in memory; right after the HNSW build it does not, and
        // the first mode timed paid for that (1M chunks: keyword p95 54 ms cold, hybrid — timed
        // after it, keyword included — 48 ms). Other questions than the timed ones, so none of
        // theirs is cached in advance.
        for (const query of warmUp)
          for (const mode of SEARCH_MODES)
            await search({ pool, embedder }, { ...SEARCH_REQUEST, query, mode })
        const rounds: ModeTiming[][] = []
        for (let round = 1; round <= repeat; round++)
          rounds.push(await timeSearchModes(pool, embedder, queries))
        const exact = await exactReferences(pool, embedder, {
          queries,
          count: agreementQueries(size),
          corpusSize: size,
        })
        for (const [round, timings] of rounds.entries()) {
          if (repeat > 1) console.log(`  measurement ${round + 1} of ${repeat}:`)
          for (const timing of timings)
            console.log(
              reportModeTiming(timing, exact.get(timing.mode) ?? [], {
                size,
                realChunks: corpus ? size : base.chunks.length,
              }),
            )
        }
      }
      if (first) await benchAskLatency(pool, config, queries)
    } finally {
      if (keep)
        console.log(
          `kept schema ${schema}: measure it again with --schema ${schema}; drop it with DROP SCHEMA ${schema} CASCADE`,
        )
      else await pool.query(`DROP SCHEMA ${quoteIdentifier(schema)} CASCADE`)
      await pool.end()
    }
  }
}

/** What a kept schema holds: its chunk count, the vectors' precision and whether they are indexed. */
async function keptSchema(pool: Pool, schema: string) {
  const { rows } = await pool
    .query<{ chunks: number; indexed: boolean }>(
      `SELECT (SELECT count(*)::int FROM chunks) AS chunks,
              to_regclass('chunks_embedding_hnsw_idx') IS NOT NULL AS indexed`,
    )
    .catch((error: Error) => {
      throw new Error(`--schema ${schema}: no loaded benchmark there (${error.message})`)
    })
  return {
    chunks: rows[0]?.chunks ?? 0,
    stored: (await embeddingColumnType(pool))?.startsWith('vector') ? 'full' : 'half',
    indexed: rows[0]?.indexed ?? false,
  }
}

/** Document frequencies of the first `count` chunks of a stream (one pass, words only kept). */
async function streamedFrequencies(chunks: AsyncIterable<ChunkToStore>, count: number) {
  const documents = new Map<string, number>()
  let seen = 0
  for await (const { chunk } of chunks) {
    if (seen++ >= count) break
    for (const word of new Set(chunk.words)) documents.set(word, (documents.get(word) ?? 0) + 1)
  }
  return { documents, count: Math.min(seen, count) }
}
