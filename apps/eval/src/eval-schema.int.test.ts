import { createTestDatabase, type TestDatabase } from '@rag/db/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dropOldEvalSchemas, markEvalSchemaUsed } from './eval-schema.ts'

// Evaluation corpora are whole indexes: the older ones this tool made are dropped, the current one
// and anything it did not make are kept. The test's corpora have a prefix of their own, so the
// evaluation corpora of whoever shares the database are never touched by it.
let db: TestDatabase
// This run's own names: a run that failed half-way leaves nothing the next one trips on.
const prefix = `evs_${Date.now().toString(36)}_`
const name = (label: string) => `${prefix}${label}`
// Another tool's (or another run's) corpus, marked too but named otherwise: never dropped.
const othersCorpus = `evt_${prefix}`
beforeAll(async () => {
  db = await createTestDatabase('eval_schema')
})
afterAll(async () => {
  // Whatever this run made, whether or not it passed.
  for (const label of ['old', 'recent', 'current', 'someone_elses'])
    await db?.pool.query(`DROP SCHEMA IF EXISTS ${name(label)} CASCADE`)
  await db?.pool.query(`DROP SCHEMA IF EXISTS ${othersCorpus} CASCADE`)
  await db?.drop()
})

const schemas = async () =>
  (
    await db.pool.query<{ name: string }>(
      'SELECT nspname AS name FROM pg_namespace WHERE starts_with(nspname, $1) ORDER BY nspname',
      [prefix],
    )
  ).rows.map((row) => row.name.slice(prefix.length))

describe('evaluation corpora', () => {
  it('keep the most recently used ones this tool marked, and nothing else is dropped', async () => {
    for (const label of ['old', 'recent', 'current', 'someone_elses'])
      await db.pool.query(`CREATE SCHEMA ${name(label)}`)
    await db.pool.query(
      `COMMENT ON SCHEMA ${name('old')} IS 'rag eval corpus; last used 2020-01-01T00:00:00.000Z'`,
    )
    await db.pool.query(`CREATE SCHEMA ${othersCorpus}`)
    await db.pool.query(
      `COMMENT ON SCHEMA ${othersCorpus} IS 'rag eval corpus; last used 2019-01-01T00:00:00.000Z'`,
    )
    await markEvalSchemaUsed(db.pool, name('recent'))
    await markEvalSchemaUsed(db.pool, name('current'))
    expect(await dropOldEvalSchemas(db.pool, name('current'), 2, prefix)).toEqual([name('old')])
    expect(await schemas()).toEqual(['current', 'recent', 'someone_elses'])
    expect(await dropOldEvalSchemas(db.pool, name('current'), 1, prefix)).toEqual([name('recent')])
    const othersKept = await db.pool.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [othersCorpus])
    expect(othersKept.rowCount).toBe(1)
  })
})
