import { afterAll, beforeAll, expect, it } from 'vitest'
import { createPool, type Pool } from './create-pool.ts'
import { readTestConfig } from './testing.ts'

const config = readTestConfig()
let pool: Pool

beforeAll(() => {
  pool = createPool({ url: config.databaseUrl, max: 3 })
})
afterAll(() => pool?.end())

it.skipIf(config.dbBackend !== 'native')(
  'a checked-out connection cut by the server (a Postgres restart) is an error for its query, not a crash',
  async () => {
    const client = await pool.connect()
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')
    const ended = new Promise((resolve) => client.once('end', resolve))
    await pool.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid])
    await ended
    await expect(client.query('SELECT 1')).rejects.toThrow()
    client.release(true)
    // The pool goes on with a new connection.
    expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one).toBe(1)
  },
)
