import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkDatabaseHealth } from './database-health.ts'
import { EmbeddingSpaceMismatchError, readEmbeddingSpace } from './embedding-space.ts'
import { loadMigrations, migrate } from './migrate.ts'
import { createTestDatabase, type TestDatabase } from './testing.ts'

// Runs against the backend TEST_DB_BACKEND names: native Postgres+pgvector by default, PGlite in
// `pnpm test:pglite`. The same assertions must hold on both.

async function snapshot(db: TestDatabase) {
  const { rows } = await db.pool.query(
    `SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default
       FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, ordinal_position`,
    [db.schema],
  )
  const indexes = await db.pool.query(
    'SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 ORDER BY 1',
    [db.schema],
  )
  return { columns: rows, indexes: indexes.rows }
}

describe('migrations', () => {
  let db: TestDatabase
  beforeAll(async () => {
    db = await createTestDatabase('migrate', { migrated: false })
  })
  afterAll(async () => {
    await db?.drop()
  })

  it('creates the schema on first run and changes nothing on the second', async () => {
    const all = (await loadMigrations()).map((m) => m.version)
    const embedding = { model: 'test/model', dim: 8 }
    expect(await migrate(db.pool, { schema: db.schema, embedding })).toEqual(all)
    const before = await snapshot(db)
    expect(before.columns.map((c) => c.table_name)).toEqual(
      expect.arrayContaining([
        'documents',
        'sections',
        'chunks',
        'questions',
        'embedding_space',
        'embedding_cache',
      ]),
    )
    expect(await migrate(db.pool, { schema: db.schema, embedding })).toEqual([])
    expect(await snapshot(db)).toEqual(before)
  })

  it('lets concurrent starts take turns instead of failing', async () => {
    const results = await Promise.all([1, 2, 3].map(() => migrate(db.pool, { schema: db.schema })))
    expect(results).toEqual([[], [], []])
  })

  it('stores vectors of the configured size with an HNSW cosine index and finds the nearest', async () => {
    const indexes = await db.pool.query(
      "SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname LIKE '%hnsw%'",
      [db.schema],
    )
    expect(indexes.rows[0]?.indexdef).toMatch(/USING hnsw \(embedding halfvec_cosine_ops\)/)
    const doc = '00000000-0000-0000-0000-000000000001'
    await db.pool.query(
      `INSERT INTO documents (id, filename, source_type, stored_path, content_hash, size_bytes)
       VALUES ($1, 'a.txt', 'text', 'x', 'h', 1)`,
      [doc],
    )
    const { rows: sectionRows } = await db.pool.query(
      "INSERT INTO sections (document_id, content_hash, ordinal, source_id, text) VALUES ($1, 'h', 0, 'a.txt', 'all') RETURNING id",
      [doc],
    )
    const section = sectionRows[0]?.id
    const unit = (i: number) => `[${Array.from({ length: 8 }, (_, j) => (j === i ? 1 : 0)).join(',')}]`
    for (const i of [0, 1, 2]) {
      await db.pool.query(
        `INSERT INTO chunks (document_id, content_hash, section_id, chunk_index, source_id, text, text_hash, embedding, embedding_status)
         VALUES ($1, 'h', $5, $2, 'a.txt', $3, $3, $4, 'done')`,
        [doc, i, `chunk ${i}`, unit(i), section],
      )
    }
    const { rows } = await db.pool.query('SELECT text FROM chunks ORDER BY embedding <=> $1 LIMIT 1', [
      unit(1),
    ])
    expect(rows[0]?.text).toBe('chunk 1')
    await expect(
      db.pool.query(
        "INSERT INTO chunks (document_id, content_hash, section_id, chunk_index, source_id, text, text_hash, embedding) VALUES ($1, 'h', $2, 9, 'a', 'b', 'c', '[1,2,3]')",
        [doc, section],
      ),
    ).rejects.toThrow(/expected 8 dimensions/)
  })

  it('refuses another embedding model instead of mixing vectors, and resets on request', async () => {
    const error = await migrate(db.pool, {
      schema: db.schema,
      embedding: { model: 'other/model', dim: 16 },
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(EmbeddingSpaceMismatchError)
    expect(String(error)).toMatch(
      /^.*EMBEDDING_MODEL: the database holds embeddings of test\/model \(8 dimensions\)/,
    )

    await migrate(db.pool, {
      schema: db.schema,
      embedding: { model: 'other/model', dim: 16 },
      resetEmbeddings: true,
    })
    expect(await readEmbeddingSpace(db.pool)).toEqual({ model: 'other/model', dim: 16 })
    const { rows } = await db.pool.query(
      'SELECT DISTINCT embedding_status, embedding IS NULL AS empty FROM chunks',
    )
    expect(rows).toEqual([{ embedding_status: 'pending', empty: true }])
  })

  it('detects a migration edited after it was applied', async () => {
    const migrations = await loadMigrations()
    const edited = migrations.map((m, i) => (i === 0 ? { ...m, checksum: 'changed' } : m))
    await expect(migrate(db.pool, { schema: db.schema, migrations: edited })).rejects.toThrow(
      /was changed after it was applied/,
    )
  })

  it('reports Postgres and pgvector versions for health checks', async () => {
    const health = await checkDatabaseHealth(db.pool)
    expect(health.postgres.ok).toBe(true)
    expect(health.pgvector).toMatchObject({ ok: true, version: expect.stringMatching(/^0\.\d+\.\d+$/) })
  })
})
