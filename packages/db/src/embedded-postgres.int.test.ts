import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPool, type Pool, withTransaction } from './create-pool.ts'
import { type EmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres.ts'

// Every process of `pnpm start` talks to one PGlite through this server at once; parameterised
// queries (extended protocol) and transactions from many connections must not interleave.
let embedded: EmbeddedPostgres
let pools: Pool[]
const pool = (i: number) => {
  const found = pools[i]
  if (!found) throw new Error(`no pool ${i}`)
  return found
}

beforeAll(async () => {
  embedded = await startEmbeddedPostgres()
  pools = Array.from({ length: 5 }, () => createPool({ url: embedded.url, max: 4 }))
  await pool(0).query('CREATE TABLE counters (id int PRIMARY KEY, n int NOT NULL, label text)')
  await pool(0).query('INSERT INTO counters SELECT g, 0, NULL FROM generate_series(1, 10) g')
})

afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()))
  await embedded?.close()
})

describe('the embedded database server', () => {
  it('serves parameterised queries and transactions from many connections without mixing them', async () => {
    const errors: unknown[] = []
    await Promise.all(
      pools.flatMap((each, p) =>
        Array.from({ length: 4 }, async (_, w) => {
          for (let i = 0; i < 40; i++) {
            const id = ((p * 4 + w + i) % 10) + 1
            try {
              if (i % 2 === 0) {
                const { rows } = await each.query(
                  'SELECT id, $2::text AS label FROM counters WHERE id = $1',
                  [id, `p${p}`],
                )
                expect(rows).toEqual([{ id, label: `p${p}` }])
              } else {
                await withTransaction(each, async (client) => {
                  await client.query('UPDATE counters SET n = n + 1 WHERE id = $1', [id])
                  await client.query('UPDATE counters SET label = $2 WHERE id = $1', [id, `w${w}`])
                })
              }
            } catch (error) {
              errors.push(error)
            }
          }
        }),
      ),
    )
    expect(errors.map(String)).toEqual([])
    const { rows } = await pool(0).query<{ total: number }>('SELECT sum(n)::int AS total FROM counters')
    expect(rows[0]?.total).toBe(5 * 4 * 20)
  })

  it('keeps each connection in its own schema, however their queries interleave', async () => {
    const [a, b] = ['emb_a', 'emb_b'].map((schema) => createPool({ url: embedded.url, schema, max: 3 }))
    if (!a || !b) throw new Error('no pools')
    try {
      for (const [each, schema] of [
        [a, 'emb_a'],
        [b, 'emb_b'],
      ] as const) {
        await pool(0).query(`CREATE SCHEMA ${schema}`)
        await each.query('CREATE TABLE owner (name text)')
        await each.query('INSERT INTO owner VALUES ($1)', [schema])
      }
      const seen = await Promise.all(
        Array.from({ length: 60 }, async (_, i) => {
          const each = i % 2 === 0 ? a : b
          const { rows } = await each.query<{ name: string }>('SELECT name FROM owner')
          return [i % 2 === 0 ? 'emb_a' : 'emb_b', rows.map((row) => row.name).join()]
        }),
      )
      expect(seen.filter(([expected, got]) => expected !== got)).toEqual([])
    } finally {
      await a.end()
      await b.end()
    }
  })

  it('rolls back a transaction left open by a client that went away', async () => {
    const leaving = createPool({ url: embedded.url, max: 1 })
    const client = await leaving.connect()
    await client.query('BEGIN')
    await client.query('UPDATE counters SET n = -1000 WHERE id = 1')
    client.release(true)
    await leaving.end()
    await expect
      .poll(async () => (await pool(1).query('SELECT n FROM counters WHERE id = 1')).rows[0]?.n, {
        timeout: 60_000,
      })
      .toBeGreaterThanOrEqual(0)
  })
})
