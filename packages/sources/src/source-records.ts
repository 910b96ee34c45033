import type { SourceKind, SourceSyncStatus } from '@rag/api-contract'
import type { Pool } from '@rag/db'
import type { KnownItem } from './source-listing.ts'

export interface SourceRecord {
  id: string
  name: string
  kind: SourceKind
  collection: string
  settings: Record<string, unknown>
  /** Sealed (credentials.ts); never sent anywhere. */
  credentials: string | null
  intervalSeconds: number | null
  nextSyncAt: Date | null
  createdBy: string
  createdAt: Date
}

export interface SyncCounts {
  seen: number
  added: number
  changed: number
  unchanged: number
  deleted: number
  failed: number
  ignored: number
}

export interface SyncRecord extends SyncCounts {
  id: string
  sourceId: string
  status: SourceSyncStatus
  trigger: string
  failures: { key: string; reason: string }[]
  error: string | null
  startedAt: Date
  finishedAt: Date | null
}

const SOURCE_COLUMNS = `id, name, kind, collection, settings, credentials, interval_seconds AS "intervalSeconds",
  next_sync_at AS "nextSyncAt", created_by AS "createdBy", created_at AS "createdAt"`

export const getSource = async (pool: Pool, id: string): Promise<SourceRecord | null> =>
  (await pool.query<SourceRecord>(`SELECT ${SOURCE_COLUMNS} FROM sources WHERE id = $1`, [id])).rows[0] ??
  null

export const listSources = async (
  pool: Pool,
  collections: readonly string[] | null,
): Promise<SourceRecord[]> =>
  (
    await pool.query<SourceRecord>(
      `SELECT ${SOURCE_COLUMNS} FROM sources WHERE $1::text[] IS NULL OR collection = ANY($1) ORDER BY name`,
      [collections],
    )
  ).rows

export async function insertSource(
  pool: Pool,
  source: Omit<SourceRecord, 'createdAt' | 'nextSyncAt'>,
): Promise<SourceRecord> {
  const { rows } = await pool.query<SourceRecord>(
    `INSERT INTO sources (id, name, kind, collection, settings, credentials, interval_seconds, next_sync_at, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $7::int IS NULL THEN NULL ELSE now() END, $8)
     RETURNING ${SOURCE_COLUMNS}`,
    [
      source.id,
      source.name,
      source.kind,
      source.collection,
      JSON.stringify(source.settings),
      source.credentials,
      source.intervalSeconds,
      source.createdBy,
    ],
  )
  return rows[0] as SourceRecord
}

/**
 * A source's settings, sealed credentials or schedule changed (what is not given stays). A new
 * schedule counts from now; null: only when asked. The source as it now is, or null if it is gone.
 */
export async function updateSource(
  pool: Pool,
  id: string,
  change: {
    settings?: Record<string, unknown>
    credentials?: string | null
    intervalSeconds?: number | null
  },
): Promise<SourceRecord | null> {
  const { rows } = await pool.query<SourceRecord>(
    `UPDATE sources SET
       settings = CASE WHEN $2 THEN $3::jsonb ELSE settings END,
       credentials = CASE WHEN $4 THEN $5 ELSE credentials END,
       interval_seconds = CASE WHEN $6 THEN $7::int ELSE interval_seconds END,
       next_sync_at = CASE WHEN NOT $6 THEN next_sync_at WHEN $7::int IS NULL THEN NULL
                           ELSE now() + make_interval(secs => $7::int) END
     WHERE id = $1 RETURNING ${SOURCE_COLUMNS}`,
    [
      id,
      change.settings !== undefined,
      JSON.stringify(change.settings ?? {}),
      change.credentials !== undefined,
      change.credentials ?? null,
      change.intervalSeconds !== undefined,
      change.intervalSeconds ?? null,
    ],
  )
  return rows[0] ?? null
}

/** What the last sync saw of a source: item key → its version and extra. */
export async function knownItems(
  pool: Pool,
  sourceId: string,
): Promise<Map<string, KnownItem & { documentId: string | null }>> {
  const { rows } = await pool.query<{
    key: string
    version: string
    extra: Record<string, unknown> | null
    documentId: string | null
  }>(
    `SELECT item_key AS key, version, extra, document_id AS "documentId" FROM source_items WHERE source_id = $1`,
    [sourceId],
  )
  return new Map(rows.map(({ key, ...item }) => [key, item]))
}

export async function recordItem(
  pool: Pool,
  sourceId: string,
  item: { key: string; version: string; documentId: string | null; extra?: Record<string, unknown> },
) {
  await pool.query(
    `INSERT INTO source_items (source_id, item_key, version, document_id, extra, synced_at)
     VALUES ($1, $2, $3, $4, $5, now())
     ON CONFLICT (source_id, item_key) DO UPDATE
       SET version = EXCLUDED.version, document_id = EXCLUDED.document_id, extra = EXCLUDED.extra, synced_at = now()`,
    [sourceId, item.key, item.version, item.documentId, item.extra ? JSON.stringify(item.extra) : null],
  )
}

export const forgetItem = (pool: Pool, sourceId: string, key: string) =>
  pool.query('DELETE FROM source_items WHERE source_id = $1 AND item_key = $2', [sourceId, key])

const SYNC_COLUMNS = `id, source_id AS "sourceId", status, trigger, seen, added, changed, unchanged, deleted, failed,
  ignored, failures, error, started_at AS "startedAt", finished_at AS "finishedAt"`

export async function startSyncRecord(
  pool: Pool,
  id: string,
  sourceId: string,
  trigger: string,
): Promise<void> {
  await pool.query(
    `INSERT INTO source_syncs (id, source_id, status, trigger) VALUES ($1, $2, 'running', $3)`,
    [id, sourceId, trigger],
  )
}

export async function updateSyncRecord(
  pool: Pool,
  id: string,
  counts: SyncCounts,
  failures: { key: string; reason: string }[],
  end?: { status: Exclude<SourceSyncStatus, 'running'>; error: string | null },
): Promise<void> {
  await pool.query(
    `UPDATE source_syncs SET seen = $2, added = $3, changed = $4, unchanged = $5, deleted = $6, failed = $7,
       ignored = $8, failures = $9, status = COALESCE($10, status), error = COALESCE($11, error),
       finished_at = CASE WHEN $10::text IS NULL THEN NULL ELSE now() END
     WHERE id = $1`,
    [
      id,
      counts.seen,
      counts.added,
      counts.changed,
      counts.unchanged,
      counts.deleted,
      counts.failed,
      counts.ignored,
      JSON.stringify(failures),
      end?.status ?? null,
      end?.error ?? null,
    ],
  )
}

export const getSync = async (pool: Pool, id: string): Promise<SyncRecord | null> =>
  (await pool.query<SyncRecord>(`SELECT ${SYNC_COLUMNS} FROM source_syncs WHERE id = $1`, [id])).rows[0] ??
  null

export const recentSyncs = async (pool: Pool, sourceId: string, limit = 20): Promise<SyncRecord[]> =>
  (
    await pool.query<SyncRecord>(
      `SELECT ${SYNC_COLUMNS} FROM source_syncs WHERE source_id = $1 ORDER BY started_at DESC LIMIT $2`,
      [sourceId, limit],
    )
  ).rows

/** Each source's latest sync (sources never synced are absent). */
export async function latestSyncs(
  pool: Pool,
  sourceIds: readonly string[],
): Promise<Map<string, SyncRecord>> {
  if (sourceIds.length === 0) return new Map()
  const { rows } = await pool.query<SyncRecord>(
    `SELECT DISTINCT ON (source_id) ${SYNC_COLUMNS} FROM source_syncs WHERE source_id = ANY($1)
     ORDER BY source_id, started_at DESC`,
    [sourceIds],
  )
  return new Map(rows.map((row) => [row.sourceId, row]))
}

/** Removes a source; returns the documents it had brought (for the caller to delete with their files). */
export async function removeSource(pool: Pool, id: string): Promise<string[] | null> {
  const { rows } = await pool.query<{ documentId: string }>(
    `SELECT document_id AS "documentId" FROM source_items WHERE source_id = $1 AND document_id IS NOT NULL`,
    [id],
  )
  const { rowCount } = await pool.query('DELETE FROM sources WHERE id = $1', [id])
  return rowCount ? rows.map((row) => row.documentId) : null
}
