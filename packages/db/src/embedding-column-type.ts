import type { PoolClient } from './create-pool.ts'

/**
 * The type of a table's embedding column as Postgres prints it: 'halfvec(384)', or 'vector(384)'
 * on an installation from before half precision; null when the table has no such column.
 */
export async function embeddingColumnType(
  client: Pick<PoolClient, 'query'>,
  table: 'chunks' | 'embedding_cache' = 'chunks',
): Promise<string | null> {
  const { rows } = await client.query<{ type: string }>(
    `SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute
      WHERE attrelid = to_regclass($1) AND attname = 'embedding' AND NOT attisdropped`,
    [table],
  )
  return rows[0]?.type ?? null
}
