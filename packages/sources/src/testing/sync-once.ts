import { join } from 'node:path'
import { processEnvironment } from '@rag/config'
import type { IngestDeps } from '@rag/ingest'
import type { OutboundPolicy } from '../network/outbound-policy.ts'
import type { ReadLimits } from '../source-listing.ts'
import { sourceReader } from '../source-reader.ts'
import type { SourceRecord, SyncRecord } from '../source-records.ts'
import { syncSource } from '../sync-source.ts'
import { LOOPBACK } from './sync-worker.ts'

/**
 * One sync of a source as the watcher runs it (its reader from its kind and settings, closed
 * after), its scratch (uploads, Git's cache) under `scratch`.
 */
export async function syncOnce(
  deps: IngestDeps,
  source: SourceRecord,
  {
    scratch,
    limits,
    credentials = {},
    policy = { allowPrivate: LOOPBACK },
  }: {
    scratch: string
    limits: ReadLimits & { fetchTimeoutMs: number }
    credentials?: Record<string, string>
    policy?: OutboundPolicy
  },
): Promise<SyncRecord> {
  const reader = await sourceReader(source.kind, source.settings, credentials, {
    ...limits,
    gitCacheDir: join(scratch, 'git'),
    env: processEnvironment(),
    policy,
  })
  try {
    return await syncSource(deps, source, reader, {
      trigger: 'test',
      uploadDir: join(scratch, 'uploads'),
      maxBytes: limits.maxBytes,
    })
  } finally {
    await reader.close?.()
  }
}
