import { createTestDatabase, type TestDatabase } from '@rag/db/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { saveSignInRequest, takeSignInRequest } from './sign-in-requests.ts'
import { createUserSession, endUserSession, principalOfSession } from './user-sessions.ts'

// What a browser's sign-in keeps in the database between its redirect and its callback, and
// what signing out does to its session — at the store, without a provider or a browser.
let db: TestDatabase

beforeAll(async () => {
  db = await createTestDatabase('sign-in-store')
})
afterAll(() => db?.drop())

const request = { state: 's1', nonce: 'n1', codeVerifier: 'v1', returnTo: '/ask' }

describe('a sign-in under way', () => {
  it('is taken once by its callback: a replayed callback finds nothing', async () => {
    await saveSignInRequest(db.pool, 'req-1', request)
    expect(await takeSignInRequest(db.pool, 'req-1')).toEqual(request)
    expect(await takeSignInRequest(db.pool, 'req-1')).toBeNull()
  })

  it('is gone after its ten minutes, and a new sign-in clears the stale ones', async () => {
    await saveSignInRequest(db.pool, 'req-old', request)
    await db.pool.query(
      "UPDATE sign_in_requests SET created_at = now() - interval '11 minutes' WHERE id = 'req-old'",
    )
    expect(await takeSignInRequest(db.pool, 'req-old')).toBeNull()
    await db.pool.query(
      "UPDATE sign_in_requests SET created_at = now() - interval '11 minutes' WHERE id = 'req-old'",
    )
    await saveSignInRequest(db.pool, 'req-new', request)
    const { rows } = await db.pool.query<{ id: string }>('SELECT id FROM sign_in_requests ORDER BY id')
    expect(rows.map((row) => row.id)).toEqual(['req-new'])
  })
})

describe('signing out', () => {
  it('ends the session: its token names nobody after, and ending it again changes nothing', async () => {
    const user = {
      subject: 'idp.example:alice',
      name: 'Alice',
      role: 'editor' as const,
      collections: null,
      groups: [],
    }
    const { token, id } = await createUserSession(db.pool, user, 8)
    expect((await principalOfSession(db.pool, token))?.name).toBe('Alice')
    expect(await endUserSession(db.pool, token)).toBe(id)
    expect(await principalOfSession(db.pool, token)).toBeNull()
    const { rows } = await db.pool.query<{ ended: Date }>(
      'SELECT ended_at AS ended FROM user_sessions WHERE id = $1',
      [id],
    )
    const ended = rows[0]?.ended
    expect(await endUserSession(db.pool, token)).toBe(id)
    const again = await db.pool.query<{ ended: Date }>(
      'SELECT ended_at AS ended FROM user_sessions WHERE id = $1',
      [id],
    )
    expect(again.rows[0]?.ended).toEqual(ended)
  })
})
