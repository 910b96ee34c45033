import { createTestDatabase, type TestDatabase } from '@rag/db/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiKey, principalOfKey, revokeApiKey } from './api-keys.ts'
import { listAudit, pruneAudit, recordAudit } from './audit-log.ts'
import { BOOTSTRAP_ADMIN } from './principal.ts'

let db: TestDatabase

beforeAll(async () => {
  db = await createTestDatabase('access')
})
afterAll(() => db?.drop())

describe('the key table', () => {
  it('finds a key by its hash among 10,000 with one index probe, and no more once revoked', async () => {
    await db.pool.query(
      `INSERT INTO api_keys (id, name, role, key_hash, key_prefix, created_by)
       SELECT gen_random_uuid(), 'bulk', 'reader', md5(i::text) || md5((i * 7)::text), 'rag_xx', 'test'
         FROM generate_series(1, 10000) i`,
    )
    await db.pool.query('ANALYZE api_keys')
    const { key, record } = await createApiKey(db.pool, {
      name: 'hr',
      role: 'reader',
      collections: ['legal', 'hr', 'hr'],
      createdBy: 'bootstrap',
    })
    expect(await principalOfKey(db.pool, key)).toEqual({
      id: `key:${record.id}`,
      name: 'hr',
      role: 'reader',
      collections: ['hr', 'legal'],
    })
    const { rows } = await db.pool.query<{ 'QUERY PLAN': string }>(
      "EXPLAIN SELECT id FROM api_keys WHERE key_hash = 'x' AND revoked_at IS NULL",
    )
    expect(rows.map((row) => row['QUERY PLAN']).join('\n')).toMatch(/Index Scan using api_keys_key_hash_key/)
    await revokeApiKey(db.pool, record.id)
    expect(await principalOfKey(db.pool, key)).toBeNull()
    expect(await principalOfKey(db.pool, 'not-a-key')).toBeNull()
  })
})

describe('the audit log', () => {
  it('pages newest first and drops entries past the retention', async () => {
    for (const action of ['upload', 'ask', 'delete'] as const)
      await recordAudit(db.pool, BOOTSTRAP_ADMIN, { action, target: 'doc-1', address: '10.0.0.9' })
    await db.pool.query(`UPDATE audit_log SET at = now() - interval '100 days' WHERE action = 'upload'`)
    const first = await listAudit(db.pool, { limit: 2 })
    expect(first.map((entry) => entry.action)).toEqual(['delete', 'ask'])
    const next = await listAudit(db.pool, { limit: 2, before: first.at(-1)?.id })
    expect(next.map((entry) => entry.action)).toEqual(['upload'])
    expect(await pruneAudit(db.pool, 90)).toBe(1)
    expect((await listAudit(db.pool, { limit: 10 })).map((entry) => entry.action)).toEqual(['delete', 'ask'])
  })

  it('lists the newest entries first however many there are (ids as numbers, not text)', async () => {
    await db.pool.query(
      `INSERT INTO audit_log (actor, role, action, detail)
       SELECT 'bulk', 'admin', 'ask', json_build_object('n', i) FROM generate_series(1, 759) i`,
    )
    const page = await listAudit(db.pool, { limit: 100, actor: 'bulk' })
    expect(page.map((entry) => entry.detail.n)).toEqual(Array.from({ length: 100 }, (_, i) => 759 - i))
    const next = await listAudit(db.pool, { limit: 100, actor: 'bulk', before: page.at(-1)?.id })
    expect(next[0]?.detail.n).toBe(659)
  })
})
