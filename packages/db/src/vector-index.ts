import type { PoolClient } from './create-pool.ts'

export const VECTOR_INDEX_NAME = 'chunks_embedding_hnsw_idx'

/**
 * How the HNSW graph over the chunks' vectors is built: `m` links per element and layer, and the
 * breadth of the search that places each element (`ef_construction`). pgvector's defaults (16, 64)
 * made a graph whose search, at a million distinct chunks, found 89.8 % of the exact top 10 at the
 * breadth the search gives it (400) and 96.3 % at pgvector's widest (1000, 47 ms p50); twice the
 * links reach further per step (pnpm bench ask, docs/scaling.md has the figures).
 */
export const VECTOR_INDEX_BUILD = { m: 32, efConstruction: 80 } as const

/** The index over `chunks.embedding` as this version builds it ('halfvec' since half precision). */
export function createVectorIndexSql(type: 'halfvec' | 'vector' = 'halfvec'): string {
  return `CREATE INDEX ${VECTOR_INDEX_NAME} ON chunks USING hnsw (embedding ${type}_cosine_ops)
    WITH (m = ${VECTOR_INDEX_BUILD.m}, ef_construction = ${VECTOR_INDEX_BUILD.efConstruction})`
}

/** The build options the existing index was made with (pgvector's defaults when none were given). */
export async function vectorIndexOptions(
  client: Pick<PoolClient, 'query'>,
): Promise<{ m: number; efConstruction: number } | null> {
  const { rows } = await client.query<{ options: string[] | null }>(
    `SELECT c.reloptions AS options FROM pg_class c
      WHERE c.oid = to_regclass($1)`,
    [VECTOR_INDEX_NAME],
  )
  const row = rows[0]
  if (!row) return null
  const option = (name: string, fallback: number) =>
    Number(row.options?.find((entry) => entry.startsWith(`${name}=`))?.split('=')[1] ?? fallback)
  return { m: option('m', 16), efConstruction: option('ef_construction', 64) }
}

/**
 * An installation whose index was built with other options gets it built again at its next
 * migration (in the migration's transaction: minutes at a million chunks, docs/scaling.md), so
 * every installation searches the graph its search breadths were measured on.
 */
export async function ensureVectorIndexBuild(client: PoolClient): Promise<void> {
  const options = await vectorIndexOptions(client)
  if (
    options &&
    options.m === VECTOR_INDEX_BUILD.m &&
    options.efConstruction === VECTOR_INDEX_BUILD.efConstruction
  )
    return
  await client.query(`DROP INDEX IF EXISTS ${VECTOR_INDEX_NAME}`)
  await client.query(createVectorIndexSql('halfvec'))
}
