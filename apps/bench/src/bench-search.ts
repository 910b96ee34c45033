import { randomBytes } from 'node:crypto'
import type { BenchConfig } from '@rag/config'
import { createPool, migrate, quoteIdentifier } from '@rag/db'
import { keywordSearch } from '@rag/retrieval'
import { percentile } from './percentile.ts'
import { insertSyntheticChunks } from './synthetic-chunks.ts'

/** Queries of 2–5 terms mixing frequent and rare ones, as questions do. */
export function syntheticQueries(count: number, vocabulary: number): string[] {
  let seed = 17
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    return seed / 2 ** 31
  }
  return Array.from({ length: count }, () =>
    Array.from({ length: 2 + Math.floor(next() * 4) }, () => `t${Math.floor(vocabulary ** next())}`).join(
      ' ',
    ),
  )
}

/**
 * `pnpm bench search`: keyword (BM25) search latency at 10k and 100k synthetic chunks, and how
 * often its top 10 agrees with an exact BM25 scan of every chunk (the candidate pruning's cost).
 */
export async function benchSearch(config: BenchConfig): Promise<void> {
  for (const size of [10_000, 100_000]) {
    const schema = `bench_search_${randomBytes(3).toString('hex')}`
    const pool = createPool({ url: config.databaseUrl, schema, max: 2 })
    try {
      await migrate(pool, { schema })
      const loadStarted = performance.now()
      await insertSyntheticChunks(pool, { count: size })
      const loadMs = performance.now() - loadStarted
      const sample = syntheticQueries(200, 50_000)
      const latencies: number[] = []
      let agree = 0
      for (const [i, query] of sample.entries()) {
        const started = performance.now()
        const fast = await keywordSearch(pool, query, { limit: 10 })
        latencies.push(performance.now() - started)
        if (i < 50) {
          const exact = await keywordSearch(pool, query, { limit: 10, maxCandidates: size })
          const exactIds = new Set(exact.map((hit) => hit.chunkId))
          agree += fast.filter((hit) => exactIds.has(hit.chunkId)).length / Math.max(1, exact.length)
        }
      }
      console.log(
        `${size} chunks (loaded in ${(loadMs / 1000).toFixed(1)} s): keyword p50 ${percentile(latencies, 50).toFixed(1)} ms, ` +
          `p95 ${percentile(latencies, 95).toFixed(1)} ms over ${sample.length} queries; top-10 overlap with exhaustive scoring ${((100 * agree) / 50).toFixed(1)}%`,
      )
    } finally {
      await pool.query(`DROP SCHEMA ${quoteIdentifier(schema)} CASCADE`)
      await pool.end()
    }
  }
}
