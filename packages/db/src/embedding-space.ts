import type { PoolClient } from './create-pool.ts'
import { embeddingColumnType } from './embedding-column-type.ts'
import { createVectorIndexSql, ensureVectorIndexBuild, VECTOR_INDEX_NAME } from './vector-index.ts'

export interface EmbeddingSpace {
  model: string
  dim: number
}

export class EmbeddingSpaceMismatchError extends Error {
  constructor(
    readonly stored: EmbeddingSpace,
    readonly configured: EmbeddingSpace,
  ) {
    const variable = stored.model === configured.model ? 'EMBEDDING_DIM' : 'EMBEDDING_MODEL'
    super(
      `${variable}: the database holds embeddings of ${stored.model} (${stored.dim} dimensions) but this process is ` +
        `configured for ${configured.model} (${configured.dim} dimensions). Vectors of different models cannot be mixed: ` +
        'set it back, or run `pnpm migrate --reset-embeddings` to drop the stored vectors and re-embed every chunk.',
    )
    this.name = 'EmbeddingSpaceMismatchError'
  }
}

export async function readEmbeddingSpace(client: Pick<PoolClient, 'query'>): Promise<EmbeddingSpace | null> {
  const { rows } = await client.query<EmbeddingSpace>('SELECT model, dim FROM embedding_space')
  return rows[0] ?? null
}

/**
 * Makes the vector columns match the configured model. The first model creates them; a different
 * model or size afterwards is refused unless `reset` is asked for, which drops every stored vector
 * and marks every chunk for re-embedding. Must run inside the migration transaction.
 */
export async function ensureEmbeddingSpace(
  client: PoolClient,
  configured: EmbeddingSpace | null,
  { reset = false }: { reset?: boolean } = {},
): Promise<void> {
  if (!configured) return
  const stored = await readEmbeddingSpace(client)
  if (stored && stored.model === configured.model && stored.dim === configured.dim) {
    await toHalfPrecision(client, configured.dim)
    await ensureVectorIndexBuild(client)
    return
  }
  if (stored && !reset) throw new EmbeddingSpaceMismatchError(stored, configured)
  if (!Number.isInteger(configured.dim) || configured.dim <= 0)
    throw new Error(`invalid dimension ${configured.dim}`)

  await client.query('ALTER TABLE chunks DROP COLUMN IF EXISTS embedding')
  await client.query('DROP TABLE IF EXISTS embedding_cache')
  // Half precision (pgvector's halfvec, 2 bytes a dimension): half the table and index, the same
  // neighbours to the third decimal of a cosine (docs/scaling.md has the measurements).
  await client.query(`ALTER TABLE chunks ADD COLUMN embedding halfvec(${configured.dim})`)
  // Out of line (with toast_tuple_target, migration 0004): keyword scoring reads chunk rows, and
  // 1.5 kB of floats in each made it read 3.5x the pages (pnpm bench ask, 100k chunks: keyword
  // p95 51 → 27 ms). Vector search reads the HNSW index, and only its top rows' vectors.
  await client.query('ALTER TABLE chunks ALTER COLUMN embedding SET STORAGE EXTERNAL')
  await client.query(createVectorIndexSql('halfvec'))
  // Vectors already computed, by text: an unchanged chunk is never embedded twice.
  await client.query(`CREATE TABLE embedding_cache (
    model text NOT NULL,
    text_hash text NOT NULL,
    embedding halfvec(${configured.dim}) NOT NULL,
    PRIMARY KEY (model, text_hash)
  )`)
  await client.query("UPDATE chunks SET embedding_status = 'pending'")
  await client.query('DELETE FROM embedding_space')
  await client.query('INSERT INTO embedding_space (model, dim) VALUES ($1, $2)', [
    configured.model,
    configured.dim,
  ])
}

/**
 * An installation from before half precision keeps its vectors, converted in place at its next
 * start: the column and the cache rewritten as halfvec and the HNSW index built again (at a
 * million chunks that takes minutes, in the migration's transaction). Nothing is re-embedded.
 */
async function toHalfPrecision(client: PoolClient, dim: number): Promise<void> {
  if (!(await embeddingColumnType(client))?.startsWith('vector')) return
  await client.query(`DROP INDEX IF EXISTS ${VECTOR_INDEX_NAME}`)
  await client.query(
    `ALTER TABLE chunks ALTER COLUMN embedding TYPE halfvec(${dim}) USING embedding::halfvec(${dim})`,
  )
  await client.query(
    `ALTER TABLE embedding_cache ALTER COLUMN embedding TYPE halfvec(${dim}) USING embedding::halfvec(${dim})`,
  )
  await client.query(createVectorIndexSql('halfvec'))
}
