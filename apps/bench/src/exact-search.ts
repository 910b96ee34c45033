import type { Pool } from '@rag/db'
import { keywordSearch, type RankedChunk, reciprocalRankFusion, type SearchMode } from '@rag/retrieval'
import { toSql } from 'pgvector'

/** Nearest chunks by a sequential scan of every vector (no index): the exact answer HNSW approximates. */
export async function exactVectorSearch(pool: Pool, vector: number[], limit: number): Promise<RankedChunk[]> {
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    await client.query('SET LOCAL enable_indexscan = off')
    const { rows } = await client.query<RankedChunk>(
      `SELECT id::text AS "chunkId", (1 - (embedding <=> $1))::float8 AS score
         FROM chunks ORDER BY embedding <=> $1 LIMIT $2`,
      [toSql(vector), limit],
    )
    await client.query('COMMIT')
    return rows
  } finally {
    client.release()
  }
}

/**
 * The exact top `limit` of a mode, as `search()` would rank with unlimited effort: BM25 over every
 * chunk holding a query term, the exact nearest vectors, and for hybrid both fused with the same
 * weights and RRF k at the same depth as `search()` fuses (its per-retriever candidate count).
 */
export async function exactSearch(
  pool: Pool,
  {
    mode,
    query,
    vector,
    limit,
    depth,
    corpusSize,
    alpha,
    rrfK,
  }: {
    mode: SearchMode
    query: string
    vector: number[]
    limit: number
    depth: number
    corpusSize: number
    alpha: number
    rrfK: number
  },
): Promise<RankedChunk[]> {
  const keyword = () => keywordSearch(pool, query, { limit: depth, maxCandidates: corpusSize })
  if (mode === 'keyword') return (await keyword()).slice(0, limit)
  if (mode === 'vector') return exactVectorSearch(pool, vector, limit)
  const [vectors, keywords] = await Promise.all([exactVectorSearch(pool, vector, depth), keyword()])
  return reciprocalRankFusion(
    [
      { items: vectors, weight: alpha },
      { items: keywords, weight: 1 - alpha },
    ],
    rrfK,
  ).slice(0, limit)
}

/**
 * How much of the exact top k a fast result holds. Keyword and vector scores are exact in both
 * (BM25, cosine), so a hit counts when its score reaches the exact k-th score: among tied chunks
 * (the replicated corpus has many) either side may keep any. Hybrid scores are rank-based, so
 * there the chunk ids themselves are compared.
 */
export function agreement(mode: SearchMode, fast: RankedChunk[], exact: RankedChunk[]): number {
  if (exact.length === 0) return fast.length === 0 ? 1 : 0
  if (mode === 'hybrid') {
    const ids = new Set(exact.map((item) => item.chunkId))
    return fast.filter((item) => ids.has(item.chunkId)).length / exact.length
  }
  const kth = exact.at(-1)?.score ?? 0
  return Math.min(exact.length, fast.filter((item) => item.score >= kth - 1e-6).length) / exact.length
}

/**
 * Agreement by source passage: past the real text the corpus is perturbed copies, and a copy of a
 * passage is as good an answer as the passage. Chunk ids follow the load order, so chunk id n is a
 * copy of real chunk (n − 1) mod `realChunks`; this is the share of the exact top's passages the
 * fast top also returns (in any copy).
 */
export function passageAgreement(fast: RankedChunk[], exact: RankedChunk[], realChunks: number): number {
  const passage = (item: RankedChunk) => (Number(item.chunkId) - 1) % realChunks
  const wanted = new Set(exact.map(passage))
  if (wanted.size === 0) return fast.length === 0 ? 1 : 0
  const found = new Set(fast.map(passage))
  return [...wanted].filter((id) => found.has(id)).length / wanted.size
}
