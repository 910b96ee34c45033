import type { Pool } from '@rag/db'
import { cacheKeyOf, type Embedder } from '@rag/embeddings'
import { toSql } from 'pgvector'
import { textHash } from './text-hash.ts'

/**
 * Makes sure every text has a vector of the embedder's space (model and settings) in the cache, embedding only texts
 * never seen before, in batches. Returns how many were embedded now.
 */
export async function fillEmbeddingCache(
  pool: Pool,
  embedder: Embedder,
  texts: string[],
  { batchSize = 32 }: { batchSize?: number } = {},
): Promise<number> {
  const byHash = new Map(texts.map((text) => [textHash(text), text]))
  const { rows } = await pool.query<{ hash: string }>(
    'SELECT text_hash AS hash FROM embedding_cache WHERE model = $1 AND text_hash = ANY($2)',
    [cacheKeyOf(embedder), [...byHash.keys()]],
  )
  for (const { hash } of rows) byHash.delete(hash)
  const missing = [...byHash]
  for (let i = 0; i < missing.length; i += batchSize) {
    const batch = missing.slice(i, i + batchSize)
    const vectors = await embedder.embedPassages(batch.map(([, text]) => text))
    await pool.query(
      `INSERT INTO embedding_cache (model, text_hash, embedding)
       SELECT $1, hash, vector::halfvec FROM unnest($2::text[], $3::text[]) AS t(hash, vector)
       ON CONFLICT (model, text_hash) DO NOTHING`,
      [cacheKeyOf(embedder), batch.map(([hash]) => hash), vectors.map((vector) => toSql(vector))],
    )
  }
  return missing.length
}
