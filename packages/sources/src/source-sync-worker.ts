import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import type { SourcesSection } from '@rag/config'
import type { Pool } from '@rag/db'
import type { IngestDeps, RegisterOptions } from '@rag/ingest'
import { type JobContext, type Producer, sourceSyncJob, startWorker } from '@rag/queue'
import { type CredentialKeys, openCredentials } from './credentials.ts'
import type { OutboundPolicy } from './network/outbound-policy.ts'
import { sourceReader } from './source-reader.ts'
import { getSource, startSyncRecord, updateSyncRecord } from './source-records.ts'
import { syncSource } from './sync-source.ts'

export interface SyncWorkerOptions extends RegisterOptions {
  sources: SourcesSection
  dataDir: string
  /** The process's environment (processEnvironment()): git runs with its PATH and HOME. */
  env: NodeJS.ProcessEnv
  /** How names resolve and which addresses are private (tests give their own; default: the system's). */
  network?: Pick<OutboundPolicy, 'resolve' | 'isPrivate'>
}

export const credentialKeys = (sources: SourcesSection): CredentialKeys | null =>
  sources.secret ? { current: sources.secret, previous: sources.previousSecrets } : null

/** The handler of `source.sync`: the source as it is now, its credentials opened, synced. */
export function sourceSyncHandler(deps: IngestDeps, options: SyncWorkerOptions) {
  const { sources } = options
  return async (
    payload: { sourceId: string; syncId: string; trigger: string },
    context: Pick<JobContext, 'logger'> & { signal?: AbortSignal },
  ) => {
    const source = await getSource(deps.pool, payload.sourceId)
    if (!source) return { skipped: 'the source was removed' }
    let credentials: Record<string, string> = {}
    try {
      if (source.credentials) {
        const keys = credentialKeys(sources)
        if (!keys) throw new Error("SOURCES_SECRET is not set: the source's credentials cannot be opened")
        credentials = openCredentials(keys, source.credentials)
      }
    } catch (error) {
      // Said on the sync's record, where the person who added the source looks.
      await startSyncRecord(deps.pool, payload.syncId, source.id, payload.trigger).catch(() => undefined)
      const empty = { seen: 0, added: 0, changed: 0, unchanged: 0, deleted: 0, failed: 0, ignored: 0 }
      await updateSyncRecord(deps.pool, payload.syncId, empty, [], {
        status: 'failed',
        error: error instanceof Error ? error.message : String(error),
      })
      return { failed: true }
    }
    const reader = await sourceReader(source.kind, source.settings, credentials, {
      maxItems: sources.maxItems,
      maxBytes: options.maxBytes,
      requestTimeoutMs: sources.requestTimeoutMs,
      fetchTimeoutMs: sources.fetchTimeoutMs,
      gitCacheDir: sources.gitCacheDir || join(options.dataDir, 'sources'),
      env: options.env,
      policy: { allowPrivate: sources.allowPrivate, ...options.network },
    })
    try {
      const sync = await syncSource(deps, source, reader, {
        trigger: payload.trigger,
        syncId: payload.syncId,
        uploadDir: options.uploadDir,
        maxBytes: options.maxBytes,
        ...(context.signal ? { signal: context.signal } : {}),
      })
      return { status: sync.status }
    } finally {
      await reader.close?.()
    }
  }
}

/**
 * Asks for a sync of a source: a new one, unless one is waiting or running (that one is the
 * answer: one sync per source at a time). Returns the id of the sync that will run.
 */
export async function requestSync(
  producer: Pick<Producer, 'enqueueAgain' | 'queues'>,
  sourceId: string,
  trigger: string,
): Promise<string> {
  const syncId = randomUUID()
  const jobId = await producer.enqueueAgain(sourceSyncJob, { sourceId, syncId, trigger })
  const job = await producer.queues.get(sourceSyncJob.name)?.getJob(jobId)
  return (job?.data as { syncId?: string } | undefined)?.syncId ?? syncId
}

/**
 * Scheduled syncs: every `everyMs`, the sources whose time has come are moved to their next time
 * and asked to sync — in one statement, so two watchers never both take the same source.
 */
export function startSourceSchedule(
  deps: { pool: Pool; producer: Pick<Producer, 'enqueueAgain' | 'queues'>; logger: IngestDeps['logger'] },
  everyMs: number,
): { close(): void; tick(): Promise<void> } {
  const tick = async () => {
    const { rows } = await deps.pool.query<{ id: string }>(
      `UPDATE sources SET next_sync_at = now() + make_interval(secs => interval_seconds)
       WHERE next_sync_at <= now() AND interval_seconds IS NOT NULL RETURNING id`,
    )
    for (const { id } of rows) await requestSync(deps.producer, id, 'schedule')
  }
  const timer = setInterval(() => {
    tick().catch((error: unknown) =>
      deps.logger.warn({ err: error }, 'scheduled source syncs could not be started'),
    )
  }, everyMs)
  timer.unref()
  return { close: () => clearInterval(timer), tick }
}

/** The `source.sync` worker of a watcher process. */
export function startSourceSyncWorker(
  deps: IngestDeps,
  options: SyncWorkerOptions & { redisUrl: string; prefix: string; concurrency?: number },
) {
  const handle = sourceSyncHandler(deps, options)
  return startWorker({
    definition: sourceSyncJob,
    handler: (payload, context) => handle(payload, context),
    redisUrl: options.redisUrl,
    prefix: options.prefix,
    logger: deps.logger,
    concurrency: options.concurrency ?? 2,
    // A sync of a large place runs for minutes; its lock is renewed while it does.
    lockDurationMs: 60_000,
  })
}
