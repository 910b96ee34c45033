import type { Pool } from '@rag/db'
import { type CredentialKeys, openCredentials, sealCredentials, sealedWithCurrent } from './credentials.ts'

/**
 * Re-seals every source's credentials under the current SOURCES_SECRET (those sealed under one of
 * SOURCES_SECRET_PREVIOUS): run at the watcher's start, so a rotated-out secret can be dropped
 * once it has run. Credentials no key opens are left as they are (their syncs say why).
 */
export async function rotateCredentials(
  pool: Pool,
  keys: CredentialKeys,
): Promise<{ resealed: number; unopened: string[] }> {
  const { rows } = await pool.query<{ id: string; name: string; credentials: string }>(
    'SELECT id, name, credentials FROM sources WHERE credentials IS NOT NULL',
  )
  let resealed = 0
  const unopened: string[] = []
  for (const row of rows) {
    if (sealedWithCurrent(keys, row.credentials)) continue
    try {
      const value = openCredentials(keys, row.credentials)
      await pool.query(
        'UPDATE sources SET credentials = $2, updated_at = now() WHERE id = $1 AND credentials = $3',
        [row.id, sealCredentials(keys, value), row.credentials],
      )
      resealed++
    } catch {
      unopened.push(row.name)
    }
  }
  return { resealed, unopened }
}
