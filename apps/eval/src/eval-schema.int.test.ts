import { createTestDatabase, type TestDatabase } from '@rag/db/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dropOldEvalSchemas, markEvalSchemaUsed } from './eval-schema.ts'

// Evaluation corpora are whole indexes: the older ones this tool made are dropped, the current one
// and anything it did not make are kept.
let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase('eval_schema')
})
afterAll(() => db?.drop())

const schemas = async () =>
  (
    await db.pool.query<{ name: string }>(
      "SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE 'evs\\_%' ORDER BY nspname",
    )
  ).rows.map((row) => row.name)

describe('evaluation corpora', () => {
  it('keep the most recently used ones this tool marked, and nothing else is dropped', async () => {
    for (const name of ['evs_old', 'evs_recent', 'evs_current', 'evs_someone_elses'])
      await db.pool.query(`CREATE SCHEMA ${name}`)
    await db.pool.query("COMMENT ON SCHEMA evs_old IS 'rag eval corpus; last used 2020-01-01T00:00:00.000Z'")
    await markEvalSchemaUsed(db.pool, 'evs_recent')
    await markEvalSchemaUsed(db.pool, 'evs_current')
    expect(await dropOldEvalSchemas(db.pool, 'evs_current', 2)).toEqual(['evs_old'])
    expect(await schemas()).toEqual(['evs_current', 'evs_recent', 'evs_someone_elses'])
    expect(await dropOldEvalSchemas(db.pool, 'evs_current', 1)).toEqual(['evs_recent'])
    for (const name of await schemas()) await db.pool.query(`DROP SCHEMA ${name}`)
  })
})
