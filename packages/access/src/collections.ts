import type { Pool } from '@rag/db'

/** A collection as listed: its name, when it began and how many documents it holds. */
export interface CollectionRecord {
  name: string
  createdAt: string
  documents: number
}

/** Of these names, those no collection has (in the order given): what a request may not name. */
export async function unknownCollections(pool: Pool, names: string[]): Promise<string[]> {
  if (names.length === 0) return []
  const { rows } = await pool.query<{ name: string }>(
    'SELECT name FROM collections WHERE name = ANY($1::text[])',
    [names],
  )
  const known = new Set(rows.map((row) => row.name))
  return names.filter((name) => !known.has(name))
}

export async function collectionExists(pool: Pool, name: string): Promise<boolean> {
  return (await unknownCollections(pool, [name])).length === 0
}

/** Begins a collection with no documents yet (for its keys, sources and synonyms); false when it exists. */
export async function createCollection(pool: Pool, name: string): Promise<boolean> {
  const { rowCount } = await pool.query('INSERT INTO collections (name) VALUES ($1) ON CONFLICT DO NOTHING', [
    name,
  ])
  return rowCount === 1
}

/** The collections, by name; `within` (a reader's grants) limits them, null for every one. */
export async function listCollections(pool: Pool, within: string[] | null): Promise<CollectionRecord[]> {
  const { rows } = await pool.query<{ name: string; created_at: Date; documents: string }>(
    `SELECT c.name, c.created_at, (SELECT count(*) FROM documents d WHERE d.collection = c.name)::text AS documents
       FROM collections c
      WHERE $1::text[] IS NULL OR c.name = ANY($1::text[])
      ORDER BY c.name`,
    [within],
  )
  return rows.map((row) => ({
    name: row.name,
    createdAt: row.created_at.toISOString(),
    documents: Number(row.documents),
  }))
}
