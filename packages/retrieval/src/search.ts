import { SEARCH_MODES, type SearchMode } from '@rag/api-contract/enums'
import type { RetrievalSection } from '@rag/config'
import type { Pool } from '@rag/db'
import type { Embedder } from '@rag/embeddings'
import type { SynonymTable } from '@rag/keyword'
import { keywordSearch } from './keyword-search.ts'
import { loadHits, onePerParent, type SearchHit } from './load-hits.ts'
import { namedFirst } from './named-first.ts'
import type { RankedChunk, SearchFilters } from './ranked-chunk.ts'
import { reciprocalRankFusion } from './reciprocal-rank-fusion.ts'
import { vectorSearch } from './vector-search.ts'

export { SEARCH_MODES, type SearchMode }

export interface SearchRequest extends SearchFilters {
  query: string
  mode: SearchMode
  /** Parent sections wanted. */
  limit: number
  /**
   * Hits returned past `limit` from the same ranking (its depth unchanged), for judging the best
   * ones against those found with them; defaults to `limit`.
   */
  keep?: number
  /** Candidates fetched from each retriever (SEARCH_K); raised to cover the oversampling. */
  searchK: number
  /** Weight of the vector ranking in the fusion (1 − alpha for keyword). */
  alpha: number
  rrfK: number
  /** Parent grouping (small-to-large) on, or every chunk its own hit. */
  parents?: boolean
  /** BM25 parameters (defaults 1.2 and 0.75). */
  k1?: number
  b?: number
}

/** How the configured retrieval ranks (SEARCH_K, HYBRID_ALPHA, RRF_K, BM25_K1, BM25_B), as a search takes it. */
export function rankingSettings(
  retrieval: Pick<RetrievalSection, 'searchK' | 'hybridAlpha' | 'rrfK' | 'bm25K1' | 'bm25B'>,
): Pick<SearchRequest, 'searchK' | 'alpha' | 'rrfK' | 'k1' | 'b'> {
  return {
    searchK: retrieval.searchK,
    alpha: retrieval.hybridAlpha,
    rrfK: retrieval.rrfK,
    k1: retrieval.bm25K1,
    b: retrieval.bm25B,
  }
}

export interface SearchResult {
  hits: SearchHit[]
  /** Retrievers that were asked for but could not run (no embedding model): the rest answered. */
  degraded: string[]
  timings: { keywordMs?: number; vectorMs?: number; totalMs: number }
}

const timed = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now()
  const value = await fn()
  return [value, Math.round((performance.now() - started) * 10) / 10]
}

/**
 * Vector, keyword or hybrid search. Hybrid fuses both rankings with weighted reciprocal rank fusion;
 * in both modes that read words, passages holding the question's rare names come first (namedFirst);
 * without an embedding model it falls back to keyword search and says so in `degraded`.
 * Oversamples (4× the wanted parents) so enough distinct parents survive the grouping.
 */
export async function search(
  {
    pool,
    embedder,
    synonyms = null,
  }: { pool: Pool; embedder: Embedder | null; synonyms?: SynonymTable | null },
  request: SearchRequest,
): Promise<SearchResult> {
  const started = performance.now()
  const wantsVector = request.mode !== 'keyword'
  const wantsKeyword = request.mode !== 'vector'
  const degraded = wantsVector && !embedder ? ['vector'] : []
  const depth = Math.max(request.searchK, request.limit * 4)
  const filters = { collection: request.collection, within: request.within, limit: depth }
  const bm25 = { k1: request.k1, b: request.b }
  const timings: SearchResult['timings'] = { totalMs: 0 }

  const [keyword, vector] = await Promise.all([
    wantsKeyword || !embedder
      ? timed(() => keywordSearch(pool, request.query, { ...filters, ...bm25, synonyms })).then(
          ([items, ms]) => {
            timings.keywordMs = ms
            return items
          },
        )
      : Promise.resolve<RankedChunk[]>([]),
    wantsVector && embedder
      ? timed(async () =>
          vectorSearch(pool, await embedder.embedQuery(request.query), {
            ...filters,
            fused: request.mode === 'hybrid',
          }),
        ).then(([items, ms]) => {
          timings.vectorMs = ms
          return items
        })
      : Promise.resolve<RankedChunk[]>([]),
  ])
  const ranked =
    request.mode === 'hybrid' && embedder
      ? namedFirst(
          reciprocalRankFusion(
            [
              { items: vector, weight: request.alpha },
              { items: keyword, weight: 1 - request.alpha },
            ],
            request.rrfK,
          ),
          keyword,
        )
      : request.mode === 'vector' && embedder
        ? vector
        : namedFirst(keyword, keyword)
  const rankIn = (items: RankedChunk[]) => new Map(items.map((item, index) => [item.chunkId, index + 1]))
  const byKeyword = rankIn(keyword)
  const byVector = rankIn(vector)
  const hits = await loadHits(
    pool,
    ranked.slice(0, depth).map((item) => {
      const ranks = { keyword: byKeyword.get(item.chunkId), vector: byVector.get(item.chunkId) }
      return {
        ...item,
        foundBy: [
          ...(ranks.keyword !== undefined ? (['keyword'] as const) : []),
          ...(ranks.vector !== undefined ? (['vector'] as const) : []),
        ],
        ranks: Object.fromEntries(Object.entries(ranks).filter(([, rank]) => rank !== undefined)),
      }
    }),
  )
  timings.totalMs = Math.round((performance.now() - started) * 10) / 10
  return {
    hits:
      request.parents === false
        ? hits.slice(0, request.keep ?? request.limit)
        : onePerParent(hits, request.keep ?? request.limit),
    degraded,
    timings,
  }
}
