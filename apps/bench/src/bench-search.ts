import { randomBytes } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { parseArgs } from 'node:util'
import type { BenchConfig } from '@rag/config'
import { createPool, migrate, type Pool, quoteIdentifier, startEmbeddedPostgres } from '@rag/db'
import { sudachiSynonyms } from '@rag/keyword'
import { keywordSearch } from '@rag/retrieval'
import { bulkLoad } from './bulk-load.ts'
import { distinctChunks, distinctCount, distractorCorpus } from './distinct-corpus.ts'
import { loadAverage } from './machine-load.ts'
import { percentile } from './percentile.ts'
import {
  benchCollection,
  perturbedCopies,
  readRealText,
  realTextChunks,
  seeded,
  storeChunks,
} from './real-text-corpus.ts'

const QUERIES = 200
const AGREEMENT_QUERIES = 100

/**
 * `pnpm bench search [SIZES] [--embedded] [--collections N]`: keyword (BM25) search on real text — the shared SQuAD, JaQuAD and
 * SciFact passages over documents of 20 chunks, replicated with light perturbation past their
 * ~12k chunks — with real questions (seeded) as queries: p50/p95/p99 latency, and how often its
 * top 10 agrees with exhaustive BM25 over every chunk holding a query term. SIZES: comma-separated
 * chunk counts (default 10000,100000; 1000000 takes a while to load). --embedded: the same against
 * the embedded PGlite database `pnpm start` serves without DATABASE_URL (in memory), to compare.
 * --corpus DIR: no copies; the real passages mixed with distinct prose from DIR (Aozora Bunko's
 * text edition, see aozora-text.ts) as distractors, as many as the largest size needs. --collections N:
 * documents dealt over N collections; searched over all of them, and as a reader of one — compared,
 * query by query, with the same collection's documents alone in an index of their own.
 * --synonyms sudachi|off: the question's words searched through Sudachi's synonyms (the default,
 * as users get them) or as typed.
 */
export async function benchSearch(config: BenchConfig, args: string[] = []): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      embedded: { type: 'boolean', default: false },
      corpus: { type: 'string' },
      collections: { type: 'string', default: '1' },
      // What users get by default (SYNONYMS=sudachi); off: the words as typed, as before synonyms.
      synonyms: { type: 'string', default: 'sudachi' },
    },
  })
  const { embedded, corpus: corpusDir } = values
  const collections = Number(values.collections)
  if (!Number.isInteger(collections) || collections < 1 || collections > 1000)
    throw new Error(`--collections takes a whole number from 1 to 1000, got ${values.collections}`)
  if (positionals.length > 1) throw new Error(`one list of sizes, got ${positionals.join(' ')}`)
  if (values.synonyms !== 'sudachi' && values.synonyms !== 'off')
    throw new Error(`--synonyms takes sudachi or off, got ${values.synonyms}`)
  const synonyms = values.synonyms === 'sudachi' ? await sudachiSynonyms() : null
  console.log(`synonyms: ${values.synonyms}`)
  const sizeArg = positionals[0] ?? '10000,100000'
  const sizes = sizeArg.split(',').map(Number)
  if (sizes.some((size) => !Number.isInteger(size) || size < 1)) throw new Error(`bad sizes: ${sizeArg}`)
  const server = embedded ? await startEmbeddedPostgres() : undefined
  const databaseUrl = server?.url ?? config.databaseUrl
  const text = await readRealText(config.sharedDir)
  const base = realTextChunks(text)
  const corpus = corpusDir
    ? await distractorCorpus(config, corpusDir, Math.max(...sizes) - base.chunks.length)
    : undefined
  const distinct = corpus ? distinctCount(base, corpus) : Number.POSITIVE_INFINITY
  if (Math.max(...sizes) > distinct)
    console.log(`only ${distinct} distinct chunks: larger sizes would repeat text, and are measured at that`)
  const random = seeded(11)
  const queries = Array.from(
    { length: QUERIES },
    () => text.questions[Math.floor(random() * text.questions.length)] ?? '',
  )
  console.log(
    `${embedded ? 'embedded PGlite' : 'Postgres at BENCH_DATABASE_URL'}; real text: ${text.passages.length} passages, ${text.questions.length} questions; machine: ${availableParallelism()} cores, load ${loadAverage()}`,
  )
  try {
    for (const size of sizes) await benchSize(Math.min(size, distinct))
  } finally {
    await server?.close()
  }

  async function benchSize(size: number) {
    const loaded = await loadSchema(size)
    // Over several collections, the reader's collection again, alone in an index of its own: the
    // baseline the reader's timings are compared with, measured query by query beside them.
    const alone = collections > 1 ? await loadSchema(size, benchCollection(0, collections)) : undefined
    try {
      // Every collection (an admin), and, over several, a reader of one of them: each searched with
      // its own collections' statistics.
      const scopes: { name: string; within: string[] | null }[] = [
        { name: collections > 1 ? `all ${collections} collections` : 'one collection', within: null },
        ...(collections > 1
          ? [{ name: 'a reader of one collection', within: [benchCollection(0, collections)] }]
          : []),
      ]
      for (const scope of scopes) {
        const latencies: number[] = []
        let agree = 0
        for (const [i, query] of queries.entries()) {
          const started = performance.now()
          const fast = await keywordSearch(loaded.pool, query, { limit: 10, within: scope.within, synonyms })
          latencies.push(performance.now() - started)
          if (i < AGREEMENT_QUERIES) agree += await agreement(loaded.pool, query, fast, scope.within, size)
        }
        console.log(
          `${size} ${corpusDir ? 'distinct ' : ''}chunks of real text (${Math.ceil(size / 20)} documents, loaded in ${(loaded.loadMs / 1000).toFixed(1)} s, ${(loaded.bytes / 1e9).toFixed(2)} GB on disk with indexes), ${scope.name}: ` +
            `keyword p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, ` +
            `p99 ${percentile(latencies, 99).toFixed(1)} ms over ${queries.length} real questions; top-10 agreement with ` +
            `exhaustive BM25 ${((100 * agree) / AGREEMENT_QUERIES).toFixed(1)}% (goal: p95 < 50 ms, ≥ 97%); load ${loadAverage()}`,
        )
      }
      if (alone) await compareWithAlone(loaded.pool, alone.pool)
    } finally {
      await loaded.close()
      await alone?.close()
    }
  }

  /** A fresh schema holding `size` chunks dealt over the collections (or only those of onlyCollection). */
  async function loadSchema(size: number, onlyCollection?: string) {
    const schema = `bench_search_${randomBytes(3).toString('hex')}`
    const pool = createPool({ url: databaseUrl, schema, max: 2 })
    const close = async () => {
      await pool.query(`DROP SCHEMA ${quoteIdentifier(schema)} CASCADE`)
      await pool.end()
    }
    try {
      await migrate(pool, { schema })
      const loadStarted = performance.now()
      const source = corpus ? distinctChunks(base, corpus) : perturbedCopies(base)
      await bulkLoad(pool, () => storeChunks(pool, source, { count: size, collections, onlyCollection }), {
        embedded,
      })
      const loadMs = performance.now() - loadStarted
      const disk = (
        await pool.query<{ bytes: string }>(
          `SELECT (pg_total_relation_size('chunks') + pg_total_relation_size('sections') + pg_total_relation_size('documents')
                   + pg_total_relation_size('term_stats'))::text AS bytes`,
        )
      ).rows[0]?.bytes
      return { pool, loadMs, bytes: Number(disk), close }
    } catch (error) {
      await close()
      throw error
    }
  }

  /** Exhaustive: a candidate budget as large as the corpus scores every chunk holding any query term. */
  async function agreement(
    pool: Pool,
    query: string,
    fast: { chunkId: string }[],
    within: string[] | null,
    size: number,
  ): Promise<number> {
    const exact = await keywordSearch(pool, query, { limit: 10, maxCandidates: size, within, synonyms })
    const exactIds = new Set(exact.map((hit) => hit.chunkId))
    return exact.length === 0 ? 1 : fast.filter((hit) => exactIds.has(hit.chunkId)).length / exact.length
  }

  /**
   * The reader of one collection among the others against the same collection alone: each query
   * timed in both, in alternating order (so drift in the machine's load falls on both alike), and
   * whether the two answer the same passages.
   */
  async function compareWithAlone(among: Pool, alone: Pool) {
    const within = [benchCollection(0, collections)]
    const timings = { among: [] as number[], alone: [] as number[] }
    let same = 0
    for (const [i, query] of queries.entries()) {
      const order = i % 2 === 0 ? (['among', 'alone'] as const) : (['alone', 'among'] as const)
      const hits: Record<string, string[]> = {}
      for (const side of order) {
        const started = performance.now()
        const found = await keywordSearch(side === 'among' ? among : alone, query, {
          limit: 10,
          within,
          synonyms,
        })
        timings[side].push(performance.now() - started)
        // Chunk ids differ between the two schemas; the same passages score the same.
        hits[side] = found.map((hit) => hit.score.toFixed(6))
      }
      if (JSON.stringify(hits.among) === JSON.stringify(hits.alone)) same++
    }
    const change = (p: number) =>
      `${((100 * (percentile(timings.among, p) - percentile(timings.alone, p))) / percentile(timings.alone, p)).toFixed(1)}%`
    console.log(
      `one of ${collections} collections vs the same collection alone: keyword p50 ${percentile(timings.among, 50).toFixed(1)} vs ${percentile(timings.alone, 50).toFixed(1)} ms (${change(50)}), ` +
        `p95 ${percentile(timings.among, 95).toFixed(1)} vs ${percentile(timings.alone, 95).toFixed(1)} ms (${change(95)}; goal within 10%); ` +
        `the same top-10 scores for ${same} of ${queries.length} questions; load ${loadAverage()}`,
    )
  }
}
