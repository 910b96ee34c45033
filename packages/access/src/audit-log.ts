import type { Pool } from '@rag/db'
import type { Principal } from './principal.ts'

/** What the audit log records (one place: the API's filter takes these). */
export const AUDIT_ACTIONS = [
  'upload',
  'delete',
  'reindex',
  'ask',
  'sign-in',
  'key.create',
  'key.revoke',
  'collection.create',
  'synonyms.change',
  'calibration.change',
  'feedback',
  'evaluation.change',
  'evaluation.run',
  'source.change',
  'source.sync',
] as const
export type AuditAction = (typeof AUDIT_ACTIONS)[number]

export interface AuditEntry {
  id: string
  at: string
  actor: string
  role: string
  action: AuditAction
  target: string | null
  collection: string | null
  address: string | null
  detail: Record<string, unknown>
}

export async function recordAudit(
  pool: Pool,
  principal: Principal,
  entry: {
    action: AuditAction
    target?: string | null
    collection?: string | null
    address?: string | null
    detail?: Record<string, unknown>
  },
): Promise<void> {
  await pool.query(
    `INSERT INTO audit_log (actor, role, action, target, collection, address, detail)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      principal.id,
      principal.role,
      entry.action,
      entry.target ?? null,
      entry.collection ?? null,
      entry.address ?? null,
      JSON.stringify(entry.detail ?? {}),
    ],
  )
}

/** Newest first, `limit` at a time; `before` is the last id of the previous page. */
export async function listAudit(
  pool: Pool,
  filter: { limit: number; before?: string; actor?: string; action?: AuditAction; since?: Date },
): Promise<AuditEntry[]> {
  // Ordered by the table's id, not the text the row shows it as (`id` alone here is the output
  // column: "99" sorted after "759" and the newest entries were never listed).
  const { rows } = await pool.query(
    `SELECT id::text, at, actor, role, action, target, collection, address, detail FROM audit_log
      WHERE ($1::bigint IS NULL OR id < $1) AND ($2::text IS NULL OR actor = $2)
        AND ($3::text IS NULL OR action = $3) AND ($4::timestamptz IS NULL OR at >= $4)
      ORDER BY audit_log.id DESC LIMIT $5`,
    [filter.before ?? null, filter.actor ?? null, filter.action ?? null, filter.since ?? null, filter.limit],
  )
  return rows.map((row) => ({ ...row, at: (row.at as Date).toISOString() }) as AuditEntry)
}

/** Drops entries older than `days` (AUDIT_RETENTION_DAYS); the number dropped. */
export async function pruneAudit(pool: Pool, days: number): Promise<number> {
  const { rowCount } = await pool.query(
    `DELETE FROM audit_log WHERE at < now() - make_interval(days => $1)`,
    [days],
  )
  return rowCount ?? 0
}
