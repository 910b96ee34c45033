import { randomBytes } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { parseArgs } from 'node:util'
import type { BenchConfig } from '@rag/config'
import { createPool, migrate, quoteIdentifier, startEmbeddedPostgres } from '@rag/db'
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
 * documents dealt over N collections; searched over all of them, and as a reader of one.
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
    const schema = `bench_search_${randomBytes(3).toString('hex')}`
    const pool = createPool({ url: databaseUrl, schema, max: 2 })
    try {
      await migrate(pool, { schema })
      const loadStarted = performance.now()
      await bulkLoad(
        pool,
        () =>
          storeChunks(pool, corpus ? distinctChunks(base, corpus) : perturbedCopies(base), {
            count: size,
            collections,
          }),
        { embedded },
      )
      const loadMs = performance.now() - loadStarted
      const disk = (
        await pool.query<{ bytes: string }>(
          `SELECT (pg_total_relation_size('chunks') + pg_total_relation_size('sections') + pg_total_relation_size('documents')
                   + pg_total_relation_size('term_stats'))::text AS bytes`,
        )
      ).rows[0]?.bytes
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
          const fast = await keywordSearch(pool, query, { limit: 10, within: scope.within, synonyms })
          latencies.push(performance.now() - started)
          if (i < AGREEMENT_QUERIES) {
            // Exhaustive: a candidate budget as large as the corpus scores every chunk holding any query term.
            const exact = await keywordSearch(pool, query, {
              limit: 10,
              maxCandidates: size,
              within: scope.within,
              synonyms,
            })
            const exactIds = new Set(exact.map((hit) => hit.chunkId))
            agree +=
              exact.length === 0 ? 1 : fast.filter((hit) => exactIds.has(hit.chunkId)).length / exact.length
          }
        }
        console.log(
          `${size} ${corpusDir ? 'distinct ' : ''}chunks of real text (${Math.ceil(size / 20)} documents, loaded in ${(loadMs / 1000).toFixed(1)} s, ${(Number(disk) / 1e9).toFixed(2)} GB on disk with indexes), ${scope.name}: ` +
            `keyword p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, ` +
            `p99 ${percentile(latencies, 99).toFixed(1)} ms over ${queries.length} real questions; top-10 agreement with ` +
            `exhaustive BM25 ${((100 * agree) / AGREEMENT_QUERIES).toFixed(1)}% (goal: p95 < 50 ms, ≥ 97%); load ${loadAverage()}`,
        )
      }
    } finally {
      await pool.query(`DROP SCHEMA ${quoteIdentifier(schema)} CASCADE`)
      await pool.end()
    }
  }
}
