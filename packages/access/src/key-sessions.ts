import { randomBytes, randomUUID } from 'node:crypto'
import type { Pool } from '@rag/db'
import { hashKey } from './api-keys.ts'

/**
 * A browser signed in with an API key holds one of these in its cookie, never the key: told from
 * keys and single sign-on sessions by its prefix.
 */
export const KEY_SESSION_PREFIX = 'rag_kse_'

/** How long a key's browser session lasts before the page asks for the key again. */
export const KEY_SESSION_HOURS = 24 * 7

/** What a key session token stands for: the key (by its hash) and whom it stood for at sign-in. */
export interface KeySession {
  id: string
  keyHash: string
  principalId: string
}

/** A new session for a key that was just checked; its token goes to the browser's cookie only. */
export async function createKeySession(
  pool: Pool,
  key: string,
  principalId: string,
  hours = KEY_SESSION_HOURS,
): Promise<{ token: string; id: string }> {
  const token = `${KEY_SESSION_PREFIX}${randomBytes(32).toString('base64url')}`
  const id = randomUUID()
  await pool.query(
    `INSERT INTO key_sessions (id, token_hash, key_hash, principal_id, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(hours => $5))`,
    [id, hashKey(token), hashKey(key), principalId, hours],
  )
  return { token, id }
}

/** The open session a token names (unexpired, not signed out), else null. One index probe. */
export async function keySessionOf(pool: Pool, token: string): Promise<KeySession | null> {
  if (!token.startsWith(KEY_SESSION_PREFIX)) return null
  const { rows } = await pool.query<KeySession>(
    `SELECT id::text, key_hash AS "keyHash", principal_id AS "principalId" FROM key_sessions
      WHERE token_hash = $1 AND ended_at IS NULL AND expires_at > now()`,
    [hashKey(token)],
  )
  return rows[0] ?? null
}

/** Signs a key session out for good (a copied cookie is refused from now on); its id, or null. */
export async function endKeySession(pool: Pool, token: string): Promise<string | null> {
  const { rows } = await pool.query<{ id: string }>(
    'UPDATE key_sessions SET ended_at = coalesce(ended_at, now()) WHERE token_hash = $1 RETURNING id::text',
    [hashKey(token)],
  )
  return rows[0]?.id ?? null
}

/** Expired and ended key sessions past the audit's keeping are dropped with it. */
export async function pruneKeySessions(pool: Pool, olderThanDays: number): Promise<void> {
  await pool.query(
    `DELETE FROM key_sessions WHERE coalesce(ended_at, expires_at) < now() - make_interval(days => $1)`,
    [olderThanDays],
  )
}
