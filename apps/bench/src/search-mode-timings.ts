import type { Pool } from '@rag/db'
import type { Embedder } from '@rag/embeddings'
import { type RankedChunk, SEARCH_MODES, type SearchMode, search } from '@rag/retrieval'
import { agreement, exactSearch, passageAgreement } from './exact-search.ts'
import { loadAverage } from './machine-load.ts'
import { ms, percentile } from './percentile.ts'

/** As the question pipeline asks: 10 chunks, fused by weighted RRF (alpha 0.5, k 60). */
export const SEARCH_REQUEST = { limit: 10, searchK: 10, alpha: 0.5, rrfK: 60, parents: false }
/** search() fetches this many candidates from each retriever before fusing (4× the limit). */
const FUSION_DEPTH = Math.max(SEARCH_REQUEST.searchK, SEARCH_REQUEST.limit * 4)

/** One mode's timed pass: each question's latency and top 10, and the machine's load just after. */
export interface ModeTiming {
  mode: SearchMode
  latencies: number[]
  found: RankedChunk[][]
  /** Each retriever's own time per question, in hybrid mode where the two run side by side. */
  retrievers: { keyword: number[]; vector: number[] }
  load: string
}

/** Every mode's timed pass over the questions, one question at a time, as a serving database would see them. */
export async function timeSearchModes(
  pool: Pool,
  embedder: Embedder,
  queries: string[],
): Promise<ModeTiming[]> {
  const timings: ModeTiming[] = []
  for (const mode of SEARCH_MODES) {
    const latencies: number[] = []
    const found: RankedChunk[][] = []
    const retrievers = { keyword: [] as number[], vector: [] as number[] }
    for (const query of queries) {
      const started = performance.now()
      const { hits, timings: spent } = await search({ pool, embedder }, { ...SEARCH_REQUEST, query, mode })
      latencies.push(performance.now() - started)
      found.push(hits)
      if (mode === 'hybrid') {
        retrievers.keyword.push(spent.keywordMs ?? 0)
        retrievers.vector.push(spent.vectorMs ?? 0)
      }
    }
    timings.push({ mode, latencies, found, retrievers, load: loadAverage() })
  }
  return timings
}

/**
 * The exact top 10 of each mode for the first `count` questions. Computed once, after every timed
 * pass, so that no pass follows the bench's own scans: each reads the whole table for seconds on
 * both cores and leaves pages to write (1M chunks, stop 41: hybrid p99 57 ms in the first pass,
 * 91 ms in the second, timed right after them; a serving database runs no such scans).
 */
export async function exactReferences(
  pool: Pool,
  embedder: Embedder,
  { queries, count, corpusSize }: { queries: string[]; count: number; corpusSize: number },
): Promise<Map<SearchMode, RankedChunk[][]>> {
  const references = new Map<SearchMode, RankedChunk[][]>()
  const asked = queries.slice(0, count)
  const vectors = await Promise.all(asked.map((query) => embedder.embedQuery(query)))
  for (const mode of SEARCH_MODES) {
    const exact: RankedChunk[][] = []
    for (const [i, query] of asked.entries())
      exact.push(
        await exactSearch(pool, {
          ...SEARCH_REQUEST,
          mode,
          query,
          vector: vectors[i] ?? [],
          depth: FUSION_DEPTH,
          corpusSize,
        }),
      )
    references.set(mode, exact)
  }
  return references
}

/** One line per mode: latency percentiles, top-10 agreement with the exact references, the load. */
export function reportModeTiming(
  { mode, latencies, found, retrievers, load }: ModeTiming,
  exact: RankedChunk[][],
  { size, realChunks }: { size: number; realChunks: number },
): string {
  let agreed = 0
  let passages = 0
  for (const [i, reference] of exact.entries()) {
    agreed += agreement(mode, found[i] ?? [], reference)
    passages += passageAgreement(found[i] ?? [], reference, realChunks)
  }
  const share = (value: number) => `${((100 * value) / exact.length).toFixed(1)}%`
  // Where a hybrid's time goes: the slower of its two concurrent retrievers, then fusion and loading.
  const sides =
    mode === 'hybrid'
      ? ` (keyword side p95 ${ms(percentile(retrievers.keyword, 95))}, vector side p95 ${ms(percentile(retrievers.vector, 95))})`
      : ''
  return (
    `  ${size} chunks ${mode.padEnd(7)} p50 ${ms(percentile(latencies, 50))}, p95 ${ms(percentile(latencies, 95))}, ` +
    `p99 ${ms(percentile(latencies, 99))}${sides} | top-10 agreement with exact ${share(agreed)} (${exact.length} questions), ` +
    `by source passage ${share(passages)} (goal: p95 < 50 ms, ≥ 97%) | load ${load}`
  )
}
