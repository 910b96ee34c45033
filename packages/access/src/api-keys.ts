import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type { Role } from '@rag/api-contract/enums'
import type { Pool } from '@rag/db'
import type { Principal } from './principal.ts'

/** A key as listed: never the key, only its first characters. */
export interface ApiKeyRecord {
  id: string
  name: string
  role: Role
  collections: string[] | null
  prefix: string
  createdBy: string
  createdAt: string
  revokedAt: string | null
  lastUsedAt: string | null
}

/** Keys are `rag_` and 32 random bytes: a fast hash of that much randomness cannot be searched. */
const KEY_PREFIX = 'rag_'
export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex')

const COLUMNS = `id::text, name, role, collections, key_prefix AS prefix, created_by AS "createdBy",
  created_at AS "createdAt", revoked_at AS "revokedAt", last_used_at AS "lastUsedAt"`

const iso = (row: Record<string, unknown>): ApiKeyRecord =>
  ({
    ...row,
    createdAt: (row.createdAt as Date).toISOString(),
    revokedAt: row.revokedAt ? (row.revokedAt as Date).toISOString() : null,
    lastUsedAt: row.lastUsedAt ? (row.lastUsedAt as Date).toISOString() : null,
  }) as ApiKeyRecord

/** A new key: returned once, with its record; only its hash is stored. */
export async function createApiKey(
  pool: Pool,
  input: { name: string; role: Role; collections: string[] | null; createdBy: string },
): Promise<{ key: string; record: ApiKeyRecord }> {
  const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`
  const { rows } = await pool.query(
    `INSERT INTO api_keys (id, name, role, collections, key_hash, key_prefix, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
    [
      randomUUID(),
      input.name,
      input.role,
      input.collections === null ? null : [...new Set(input.collections)].sort(),
      hashKey(key),
      key.slice(0, KEY_PREFIX.length + 6),
      input.createdBy,
    ],
  )
  return { key, record: iso(rows[0] as Record<string, unknown>) }
}

export async function listApiKeys(pool: Pool): Promise<ApiKeyRecord[]> {
  const { rows } = await pool.query(`SELECT ${COLUMNS} FROM api_keys ORDER BY created_at, id`)
  return rows.map(iso)
}

/** Revokes a key: the next request that presents it is refused. False when there is no such key. */
export async function revokeApiKey(pool: Pool, id: string): Promise<ApiKeyRecord | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null
  const { rows } = await pool.query(
    `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 RETURNING ${COLUMNS}`,
    [id],
  )
  return rows[0] ? iso(rows[0] as Record<string, unknown>) : null
}

/**
 * The principal a presented key stands for, or null: one probe of the unique index on its hash,
 * whatever the number of keys; a revoked key is no key. Read on every request, so a revocation
 * holds from the next one. Its last use is written at most once a minute.
 */
export async function principalOfKey(pool: Pool, key: string): Promise<Principal | null> {
  return key.startsWith(KEY_PREFIX) ? principalOfKeyHash(pool, hashKey(key)) : null
}

/** The same, by the key's hash (what a browser's key session keeps instead of the key). */
export async function principalOfKeyHash(pool: Pool, keyHash: string): Promise<Principal | null> {
  const { rows } = await pool.query<{ id: string; name: string; role: Role; collections: string[] | null }>(
    `UPDATE api_keys SET last_used_at = now()
      WHERE key_hash = $1 AND revoked_at IS NULL
        AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')
      RETURNING id::text, name, role, collections`,
    [keyHash],
  )
  const row =
    rows[0] ??
    (
      await pool.query<{ id: string; name: string; role: Role; collections: string[] | null }>(
        'SELECT id::text, name, role, collections FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
        [keyHash],
      )
    ).rows[0]
  return row ? { id: `key:${row.id}`, name: row.name, role: row.role, collections: row.collections } : null
}
