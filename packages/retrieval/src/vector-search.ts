import type { Pool } from '@rag/db'
import { toSql } from 'pgvector'
import type { RankedChunk, SearchFilters } from './ranked-chunk.ts'

/** Nearest chunks by cosine distance through the HNSW index; score = cosine similarity. */
export async function vectorSearch(
  pool: Pool,
  embedding: number[],
  { limit, collection }: SearchFilters & { limit: number },
): Promise<RankedChunk[]> {
  // The HNSW scan returns ef_search candidates before filtering; ask for enough that filters leave `limit`.
  const efSearch = Math.min(1000, Math.max(40, limit * 4))
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    await client.query(`SET LOCAL hnsw.ef_search = ${efSearch}`)
    // At ~10k chunks the planner prefers an exact scan with a sort (pnpm bench ask: 17 ms against
    // 1–2 ms through HNSW); the index is what this query is for.
    await client.query('SET LOCAL enable_seqscan = off')
    const { rows } = await client.query<{ chunkId: string; score: number }>(
      `SELECT ch.id::text AS "chunkId", (1 - (ch.embedding <=> $1::vector))::float8 AS score
         FROM chunks ch JOIN documents d ON d.id = ch.document_id AND d.active_hash = ch.content_hash
        WHERE ch.embedding IS NOT NULL AND ($3::text IS NULL OR d.collection = $3)
        ORDER BY ch.embedding <=> $1::vector
        LIMIT $2`,
      [toSql(embedding), limit, collection ?? null],
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
