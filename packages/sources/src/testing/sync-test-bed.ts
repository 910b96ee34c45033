import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type IngestionFixture, startIngestionFixture, waitForDocument } from '@rag/ingest/testing'
import type { OutboundPolicy } from '../network/outbound-policy.ts'
import type { ReadLimits } from '../source-listing.ts'
import { insertSource, type SourceRecord, type SyncRecord } from '../source-records.ts'
import { syncOnce } from './sync-once.ts'

export interface SyncTestBed {
  fixture: IngestionFixture
  /** A folder of the test's own (uploads, Git's cache, repositories it makes). */
  scratch: string
  /** A source of a collection named as it is, without credentials (a sync is given them). */
  addSource(
    kind: SourceRecord['kind'],
    name: string,
    settings: Record<string, unknown>,
  ): Promise<SourceRecord>
  sync(source: SourceRecord, credentials?: Record<string, string>): Promise<SyncRecord>
  /** The collection's document names, sorted, each document waited for to be ready. */
  filenames(collection: string): Promise<string[]>
  close(): Promise<void>
}

/**
 * What the sources' integration tests stand on: the ingestion fixture (fresh schema and queues,
 * the workers in this process), a scratch folder, and sources synced as the watcher syncs them.
 */
export async function startSyncTestBed(
  label: string,
  limits: ReadLimits & { fetchTimeoutMs: number },
  /** Where its syncs may connect (default: loopback, where the test servers are). */
  policy?: OutboundPolicy,
): Promise<SyncTestBed> {
  const [fixture, scratch] = await Promise.all([
    startIngestionFixture(label),
    mkdtemp(join(tmpdir(), `rag-${label}-`)),
  ])
  const pool = fixture.db.pool
  return {
    fixture,
    scratch,
    addSource: (kind, name, settings) =>
      insertSource(pool, {
        id: randomUUID(),
        name,
        kind,
        collection: name,
        settings,
        credentials: null,
        intervalSeconds: null,
        createdBy: 'test',
      }),
    sync: (source, credentials = {}) =>
      syncOnce({ ...fixture, pool }, source, { scratch, limits, credentials, ...(policy ? { policy } : {}) }),
    async filenames(collection) {
      const { rows } = await pool.query<{ id: string; filename: string }>(
        'SELECT id, filename FROM documents WHERE collection = $1 ORDER BY filename',
        [collection],
      )
      for (const row of rows) await waitForDocument(pool, row.id)
      return rows.map((row) => row.filename)
    },
    async close() {
      await fixture.close()
      await rm(scratch, { recursive: true, force: true })
    },
  }
}
