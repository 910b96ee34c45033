import { randomBytes, randomUUID } from 'node:crypto'
import type { Role } from '@rag/api-contract/enums'
import type { Pool } from '@rag/db'
import { hashKey } from './api-keys.ts'
import type { Principal } from './principal.ts'

/** Session tokens are told from keys by their prefix (both are `rag_`: one cookie, one check). */
export const SESSION_PREFIX = 'rag_ses_'

export interface SignedInUser {
  /** The provider's subject, prefixed with its issuer's host so two providers never collide. */
  subject: string
  name: string
  role: Role
  collections: string[] | null
  groups: string[]
}

export interface UserSessionRecord extends SignedInUser {
  id: string
  createdAt: string
  expiresAt: string
}

/** A new session for a person the provider vouched for; the token goes to their cookie only. */
export async function createUserSession(
  pool: Pool,
  user: SignedInUser,
  hours: number,
): Promise<{ token: string; id: string }> {
  const token = `${SESSION_PREFIX}${randomBytes(32).toString('base64url')}`
  const id = randomUUID()
  await pool.query(
    `INSERT INTO user_sessions (id, token_hash, subject, name, role, collections, groups, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(hours => $8))`,
    [
      id,
      hashKey(token),
      user.subject,
      user.name,
      user.role,
      user.collections === null ? null : [...new Set(user.collections)].sort(),
      user.groups,
      hours,
    ],
  )
  return { token, id }
}

/** The principal of a session token: unexpired and not signed out, else null. One index probe. */
export async function principalOfSession(pool: Pool, token: string): Promise<Principal | null> {
  if (!token.startsWith(SESSION_PREFIX)) return null
  const { rows } = await pool.query<{
    id: string
    subject: string
    name: string
    role: Role
    collections: string[] | null
  }>(
    `SELECT id::text, subject, name, role, collections FROM user_sessions
      WHERE token_hash = $1 AND ended_at IS NULL AND expires_at > now()`,
    [hashKey(token)],
  )
  const row = rows[0]
  return row
    ? {
        id: `user:${row.subject}`,
        name: row.name,
        role: row.role,
        collections: row.collections,
        credential: `session:${row.id}`,
        session: row.id,
      }
    : null
}

/** Signs a session out (its token is no longer accepted); returns its id, or null. */
export async function endUserSession(pool: Pool, token: string): Promise<string | null> {
  const { rows } = await pool.query<{ id: string }>(
    'UPDATE user_sessions SET ended_at = coalesce(ended_at, now()) WHERE token_hash = $1 RETURNING id::text',
    [hashKey(token)],
  )
  return rows[0]?.id ?? null
}

/** The open sessions, newest first (admin view): never a token. */
export async function listUserSessions(pool: Pool): Promise<UserSessionRecord[]> {
  const { rows } = await pool.query(
    `SELECT id::text, subject, name, role, collections, groups, created_at, expires_at FROM user_sessions
      WHERE ended_at IS NULL AND expires_at > now() ORDER BY created_at DESC, id`,
  )
  return rows.map((row) => ({
    id: row.id,
    subject: row.subject,
    name: row.name,
    role: row.role,
    collections: row.collections,
    groups: row.groups,
    createdAt: (row.created_at as Date).toISOString(),
    expiresAt: (row.expires_at as Date).toISOString(),
  }))
}

/** Ends one session by id (admin); its id back, or null when there is no open one. */
export async function endUserSessionById(pool: Pool, id: string): Promise<string | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null
  const { rows } = await pool.query<{ id: string }>(
    'UPDATE user_sessions SET ended_at = now() WHERE id = $1 AND ended_at IS NULL RETURNING id::text',
    [id],
  )
  return rows[0]?.id ?? null
}

/** Expired and ended sessions past the audit's keeping are dropped with it. */
export async function pruneUserSessions(pool: Pool, olderThanDays: number): Promise<void> {
  await pool.query(
    `DELETE FROM user_sessions WHERE coalesce(ended_at, expires_at) < now() - make_interval(days => $1)`,
    [olderThanDays],
  )
}
