import type { Pool } from '@rag/db'
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
  { limit, collection }: SearchFilters & { limit: number },
): Promise<RankedChunk[]> {
  // Candidates from the index before the document filters; a collection filter may drop most of
  // them, so it gets a deeper scan. The HNSW search's breadth (ef_search) is this count: at 4× the
  // limit its top 10 held 92.9% of the exact top 10 on 100k chunks of real text, at 10× 98.3%
  // (pnpm bench ask: 4.4 → 9.6 ms p50).
  const candidates = collection
    ? Math.min(1000, Math.max(200, limit * 20))
    : Math.min(1000, Math.max(100, limit * 10))
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    // The HNSW scan yields at most ef_search rows.
    await client.query(`SET LOCAL hnsw.ef_search = ${candidates}`)
    const { rows } = await client.query<{ chunkId: string; score: number }>(
      `SELECT c.id::text AS "chunkId", (1 - c.distance)::float8 AS score
         FROM (SELECT id, document_id, content_hash, embedding <=> $1::vector AS distance
                 FROM chunks WHERE embedding IS NOT NULL
                ORDER BY embedding <=> $1::vector LIMIT $4) c
         JOIN documents d ON d.id = c.document_id AND d.active_hash = c.content_hash
        WHERE $3::text IS NULL OR d.collection = $3
        ORDER BY c.distance
        LIMIT $2`,
      [toSql(embedding), limit, collection ?? null, candidates],
    )
    await client.query('COMMIT')
    return rows
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw error
  } finally {
    client.release()
  }
}
