import { type Pool, type PoolClient, withTransaction } from '@rag/db'
import { toSql } from 'pgvector'
import type { RankedChunk, SearchFilters } from './ranked-chunk.ts'

/**
 * Nearest chunks by cosine distance through the HNSW index; score = cosine similarity.
 *
 * The index scan is a subquery of its own: joined directly with documents, the planner expected
 * the join to drop most rows, priced the HNSW scan as reading deep into the index, and chose a
 * full scan and sort instead (pnpm bench ask, 10k chunks: 55 ms against 1.8 ms this way).
 */
export async function vectorSearch(
  pool: Pool,
  embedding: number[],
  { limit, collection, within, fused }: SearchFilters & { limit: number; fused?: boolean },
): Promise<RankedChunk[]> {
  const candidates = vectorCandidates(limit, { filtered: Boolean(collection || within), fused })
  const { rows } = await withVectorPlan(pool, candidates, (client) =>
    client.query<{ chunkId: string; score: number }>(VECTOR_SEARCH_SQL, [
      toSql(embedding),
      limit,
      collection ?? null,
      candidates,
      within ?? null,
    ]),
  )
  return rows
}

/** pgvector's widest HNSW search (hnsw.ef_search). */
const MAX_EF_SEARCH = 1000

/**
 * Candidates taken from the index before the document filters, which is also the HNSW search's
 * breadth (ef_search). A collection filter may drop most of them, so it gets a deeper scan; a
 * ranking fused with keyword search's (hybrid) needs less, the other ranking making up for a near
 * miss. At a million distinct chunks (graph of VECTOR_INDEX_BUILD, pnpm bench ask, docs/scaling.md)
 * the top 10 of a search 40 deep held 92.2 / 96.8 / 98.3 % of the exact top 10 at 200 / 300 / 400
 * (p50 24 / 33 / 42 ms); fused, 240 held 97.5 % of the exact hybrid top 10 and 320 98.0 %, and
 * the hybrid's p95 is what the vector side's breadth costs (47 ms at 240, 50 ms at 320).
 */
export function vectorCandidates(
  limit: number,
  { filtered = false, fused = false }: { filtered?: boolean; fused?: boolean } = {},
): number {
  const perResult = filtered ? 20 : fused ? 6 : 10
  return Math.min(MAX_EF_SEARCH, Math.max(filtered ? 200 : 100, limit * perResult))
}

/**
 * $1 the query vector (untyped: it takes the column's type, halfvec, or vector on an installation
 * not yet upgraded, so the HNSW index serves either), $2 limit, $3 collection, $4 candidates from the index, $5 the granted collections. */
export const VECTOR_SEARCH_SQL = `SELECT c.id::text AS "chunkId", (1 - c.distance)::float8 AS score
   FROM (SELECT id, document_id, content_hash, embedding <=> $1 AS distance
           FROM chunks WHERE embedding IS NOT NULL
          ORDER BY embedding <=> $1 LIMIT $4) c
   JOIN documents d ON d.id = c.document_id AND d.active_hash = c.content_hash
  WHERE ($3::text IS NULL OR d.collection = $3) AND ($5::text[] IS NULL OR d.collection = ANY($5::text[]))
  ORDER BY c.distance
  LIMIT $2`

/**
 * Runs `query` with the HNSW scan `candidates` wide (it yields at most ef_search rows) and
 * sequential scans of chunks off: on a small library the planner priced an exact scan as cheaper,
 * but each of its rows reads a vector kept out of line (EXTERNAL storage, for keyword scoring's
 * sake): pnpm bench ask, 10k chunks of real text, vector p50 28 → 8.4 ms (hybrid 31 → 13 ms), the same top 10s. The search and its
 * plan test share it.
 */
export function withVectorPlan<T>(
  pool: Pool,
  candidates: number,
  query: (client: PoolClient) => Promise<T>,
): Promise<T> {
  return withTransaction(pool, async (client) => {
    await client.query(`SET LOCAL hnsw.ef_search = ${Math.trunc(candidates)}; SET LOCAL enable_seqscan = off`)
    return query(client)
  })
}
