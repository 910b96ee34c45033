import { randomUUID } from 'node:crypto'
import { createTestDatabase, type TestDatabase } from '@rag/db/testing'
import { toSql } from 'pgvector'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { VECTOR_SEARCH_SQL, vectorSearch, withVectorPlan } from './vector-search.ts'

// A small library (2,000 chunks of 64 dimensions in 100 documents): the planner prices an exact
// scan as cheaper than the HNSW index here, but every row it reads fetches a vector stored out of
// line; the search must walk the index whatever the library's size.
const DIM = 64
let db: TestDatabase

/** A fixed vector per seed, spread over the sphere. */
const seededVector = (seed: number, dim: number) =>
  Array.from({ length: dim }, (_, i) => (Math.sin(seed * 12.9898 + i * 78.233) * 43758.5453) % 1)

beforeAll(async () => {
  db = await createTestDatabase('vector-plan', {
    migrateOptions: { embedding: { model: 'test/plan', dim: DIM } },
  })
  // Three statements, not three hundred: on a loaded machine a setup of round trips is what runs long.
  const ids = Array.from({ length: 100 }, () => randomUUID())
  await db.pool.query(
    `INSERT INTO documents (id, collection, filename, source_type, stored_path, content_hash, size_bytes, status, active_hash)
     SELECT id, 'default', 'doc-' || (d - 1) || '.txt', 'text', '/dev/null', 'h', 1, 'ready', 'h'
       FROM unnest($1::uuid[]) WITH ORDINALITY AS a(id, d)`,
    [ids],
  )
  await db.pool.query(
    `INSERT INTO sections (document_id, content_hash, ordinal, source_id, text)
     SELECT id, 'h', 0, 'doc-' || (d - 1) || '.txt:s1', 'x' FROM unnest($1::uuid[]) WITH ORDINALITY AS a(id, d)`,
    [ids],
  )
  const vectors = Array.from({ length: 2000 }, (_, n) => toSql(seededVector(n, DIM)))
  await db.pool.query(
    `INSERT INTO chunks (document_id, content_hash, section_id, chunk_index, source_id, text, text_hash, terms, term_count, embedding)
     SELECT s.document_id, 'h', s.id, (v.n - 1) % 20, s.source_id, 'x', 'x', '{}', 0, v.vector::vector
       FROM unnest($1::text[]) WITH ORDINALITY AS v(vector, n)
       JOIN sections s ON s.source_id = 'doc-' || ((v.n - 1) / 20) || '.txt:s1'`,
    [vectors],
  )
  await db.pool.query('ANALYZE documents; ANALYZE chunks')
}, 600_000)

afterAll(() => db?.drop())

describe('vector search on a small library', () => {
  it('walks the HNSW index rather than reading every stored vector', async () => {
    const { rows } = await withVectorPlan(db.pool, 100, (client) =>
      client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${VECTOR_SEARCH_SQL}`, [
        toSql(seededVector(7, DIM)),
        10,
        null,
        100,
        null,
      ]),
    )
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n')
    expect(plan).toMatch(/Index Scan using chunks_embedding_hnsw_idx/)
    expect(plan).not.toMatch(/Seq Scan on chunks/)
  })

  it('finds a stored vector first', async () => {
    const hits = await vectorSearch(db.pool, seededVector(1234, DIM), { limit: 10 })
    expect(hits).toHaveLength(10)
    expect(hits[0]?.score).toBeCloseTo(1, 5)
  })
})
