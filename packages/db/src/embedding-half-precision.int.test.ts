import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { embeddingColumnType } from './embedding-column-type.ts'
import { migrate } from './migrate.ts'
import { createTestDatabase, type TestDatabase } from './testing.ts'
import { VECTOR_INDEX_BUILD, vectorIndexOptions } from './vector-index.ts'

// Vectors in half precision (halfvec), and an installation from before them upgraded in place:
// its vectors kept (nothing re-embedded), the index built again for the new type.
const embedding = { model: 'test/model', dim: 8 }
const unit = (i: number) =>
  `[${Array.from({ length: 8 }, (_, j) => (j === i ? 1 : j === 7 ? 0.125 : 0)).join(',')}]`

describe('embeddings in half precision', () => {
  let db: TestDatabase
  beforeAll(async () => {
    db = await createTestDatabase('half-precision', { migrated: false })
    await migrate(db.pool, { schema: db.schema, embedding })
  })
  afterAll(() => db?.drop())

  const typeOf = (table: 'chunks' | 'embedding_cache') => embeddingColumnType(db.pool, table)

  it('upgrades full-precision vectors of an earlier installation in place, keeping them', async () => {
    // An installation from before: vector(8) columns, a vector_cosine_ops index, vectors stored.
    await db.pool.query('DROP INDEX chunks_embedding_hnsw_idx')
    await db.pool.query('ALTER TABLE chunks ALTER COLUMN embedding TYPE vector(8) USING embedding::vector(8)')
    await db.pool.query(
      'ALTER TABLE embedding_cache ALTER COLUMN embedding TYPE vector(8) USING embedding::vector(8)',
    )
    await db.pool.query(
      'CREATE INDEX chunks_embedding_hnsw_idx ON chunks USING hnsw (embedding vector_cosine_ops)',
    )
    const doc = '00000000-0000-0000-0000-000000000002'
    await db.pool.query(
      `INSERT INTO documents (id, filename, source_type, stored_path, content_hash, size_bytes)
       VALUES ($1, 'a.txt', 'text', 'x', 'h', 1)`,
      [doc],
    )
    const section = (
      await db.pool.query(
        "INSERT INTO sections (document_id, content_hash, ordinal, source_id, text) VALUES ($1, 'h', 0, 'a.txt', 'all') RETURNING id",
        [doc],
      )
    ).rows[0]?.id
    for (const i of [0, 1, 2])
      await db.pool.query(
        `INSERT INTO chunks (document_id, content_hash, section_id, chunk_index, source_id, text, text_hash, embedding, embedding_status)
         VALUES ($1, 'h', $5, $2, 'a.txt', $3, $3, $4::vector, 'done')`,
        [doc, i, `chunk ${i}`, unit(i), section],
      )
    await db.pool.query(
      "INSERT INTO embedding_cache (model, text_hash, embedding) VALUES ('test/model', 'x', $1::vector)",
      [unit(0)],
    )
    expect(await typeOf('chunks')).toBe('vector(8)')

    await migrate(db.pool, { schema: db.schema, embedding })

    expect(await typeOf('chunks')).toBe('halfvec(8)')
    expect(await typeOf('embedding_cache')).toBe('halfvec(8)')
    const index = await db.pool.query(
      "SELECT indexdef FROM pg_indexes WHERE indexname = 'chunks_embedding_hnsw_idx' AND schemaname = $1",
      [db.schema],
    )
    expect(index.rows[0]?.indexdef).toMatch(/halfvec_cosine_ops/)
    const { rows } = await db.pool.query<{ text: string; embedding: string }>(
      'SELECT text, embedding::text AS embedding FROM chunks ORDER BY embedding <=> $1::halfvec LIMIT 1',
      [unit(1)],
    )
    expect(rows[0]).toEqual({ text: 'chunk 1', embedding: unit(1) })
    // A second start finds nothing to do.
    await migrate(db.pool, { schema: db.schema, embedding })
    expect(await typeOf('chunks')).toBe('halfvec(8)')
  })

  it('builds the vector index again when it was made with other build options', async () => {
    // An installation whose graph was built with fewer links than this version's searches were measured on.
    await db.pool.query('DROP INDEX chunks_embedding_hnsw_idx')
    await db.pool.query(
      'CREATE INDEX chunks_embedding_hnsw_idx ON chunks USING hnsw (embedding halfvec_cosine_ops) WITH (m = 4, ef_construction = 8)',
    )
    expect(await vectorIndexOptions(db.pool)).toEqual({ m: 4, efConstruction: 8 })

    await migrate(db.pool, { schema: db.schema, embedding })

    expect(await vectorIndexOptions(db.pool)).toEqual(VECTOR_INDEX_BUILD)
    const { rows } = await db.pool.query<{ text: string }>(
      'SELECT text FROM chunks ORDER BY embedding <=> $1::halfvec LIMIT 1',
      [unit(2)],
    )
    expect(rows[0]?.text).toBe('chunk 2')
  })
})
