import { indexedText } from '@rag/chunking'
import type { Pool } from '@rag/db'
import { cacheKeyOf, type Embedder } from '@rag/embeddings'
import { fillEmbeddingCache } from './embedding-cache.ts'

/**
 * Chunks stored while the model was unavailable (or before it was configured) get their vectors,
 * a batch at a time. Returns how many chunks were completed; 0 means nothing is pending.
 */
export async function backfillEmbeddings(
  pool: Pool,
  embedder: Embedder,
  { batchSize = 128 } = {},
): Promise<number> {
  const { rows } = await pool.query<{ id: string; text: string; context: string | null }>(
    `SELECT id, text, context FROM chunks WHERE embedding_status = 'pending' ORDER BY id LIMIT $1`,
    [batchSize],
  )
  if (rows.length === 0) return 0
  // What the embed stage embeds: the text with its heading path (text_hash is of that too).
  await fillEmbeddingCache(
    pool,
    embedder,
    rows.map((row) => indexedText({ text: row.text, context: row.context ?? undefined })),
  )
  const { rowCount } = await pool.query(
    `UPDATE chunks c SET embedding = cache.embedding, embedding_status = 'done'
       FROM embedding_cache cache
      WHERE c.id = ANY($1::bigint[]) AND cache.model = $2 AND cache.text_hash = c.text_hash`,
    [rows.map((row) => row.id), cacheKeyOf(embedder)],
  )
  return rowCount ?? 0
}
