import { randomUUID } from 'node:crypto'
import {
  deleteDocument,
  type IngestDeps,
  type RegisterOptions,
  registerDocument,
  UploadRejectedError,
} from '@rag/ingest'
import { detectSourceType } from '@rag/parsers'
import pLimit from 'p-limit'
import {
  describeError,
  ItemError,
  type SourceItem,
  SourceListingError,
  type SourceReader,
} from './source-listing.ts'
import {
  forgetItem,
  getSync,
  knownItems,
  recordItem,
  type SourceRecord,
  type SyncCounts,
  type SyncRecord,
  startSyncRecord,
  updateSyncRecord,
} from './source-records.ts'

/** Failures kept with their reasons on a sync's record (the rest are counted). */
const FAILURES_KEPT = 50
/** How often a running sync's counts reach its record (and the job's progress). */
const PROGRESS_EVERY_MS = 1000
/** Items read and recorded at once. */
const READS_AT_ONCE = 4

export interface SyncOptions extends RegisterOptions {
  /** What started it: `schedule`, `api:<who>`, `cli`. */
  trigger: string
  signal?: AbortSignal
  onProgress?: (counts: SyncCounts) => Promise<void> | void
  /** The sync's id (the job's, so a retried job continues the same record). */
  syncId?: string
}

/** The source's row went while its sync ran (removed): the sync stops, leaving nothing of its own. */
class SourceRemovedError extends Error {}

const noCounts = (): SyncCounts => ({
  seen: 0,
  added: 0,
  changed: 0,
  unchanged: 0,
  deleted: 0,
  failed: 0,
  ignored: 0,
})

/** What a sync of a removed source reports (its record went with the source). */
function emptySync(id: string, sourceId: string, trigger: string): SyncRecord {
  const now = new Date()
  return {
    id,
    sourceId,
    status: 'failed',
    trigger,
    ...noCounts(),
    failures: [],
    error: null,
    startedAt: now,
    finishedAt: now,
  }
}

/** How an item of a source is named as a document of its collection: under the source's name. */
export const documentName = (source: Pick<SourceRecord, 'name'>, key: string) => `${source.name}/${key}`

/**
 * One sync of a source: its listing compared with what the last sync saw. New and changed items
 * are read and go through the upload path (the same content is a no-op there); an item whose
 * version the place reports unchanged is not read at all. Items gone from the place are deleted
 * here — only after a listing that completed with every item read: a partial failure (one file
 * unreadable, the server gone mid-walk) deletes nothing. Returns the sync's record.
 */
export async function syncSource(
  deps: IngestDeps,
  source: SourceRecord,
  reader: SourceReader,
  options: SyncOptions,
): Promise<SyncRecord> {
  const { pool, logger } = deps
  const id = options.syncId ?? randomUUID()
  if (!(await getSync(pool, id))) await startSyncRecord(pool, id, source.id, options.trigger)
  const signal = options.signal ?? new AbortController().signal
  const counts = noCounts()
  const failures: { key: string; reason: string }[] = []
  // Unreadable now (the network, the server): deleting after such a sync could delete what is there.
  // Refused for good (over the size limit, a name or type not taken) is the item's own: not that.
  let unreadable = 0
  const fail = (key: string, reason: string, refused: boolean) => {
    counts.failed++
    if (!refused) unreadable++
    if (failures.length < FAILURES_KEPT) failures.push({ key, reason })
  }
  let reported = Date.now()
  const progress = async (force = false) => {
    if (!force && Date.now() - reported < PROGRESS_EVERY_MS) return
    reported = Date.now()
    await updateSyncRecord(pool, id, counts, failures)
    await options.onProgress?.({ ...counts })
  }
  const known = await knownItems(pool, source.id)
  const seen = new Set<string>()

  const take = async (item: SourceItem) => {
    if (item.failure) return fail(item.key, item.failure.reason, item.failure.refused)
    const name = documentName(source, item.name ?? item.key)
    if (!item.webPage && !detectSourceType(name)) {
      counts.ignored++
      return
    }
    const before = known.get(item.key)
    if (before && before.version === item.version && before.documentId) {
      counts.unchanged++
      // What a crawler carries from an unchanged page (its links) stays as it was.
      return
    }
    if (item.size !== undefined && item.size > options.maxBytes) {
      const size = Number.isFinite(item.size) ? `${item.size} bytes` : 'larger than that'
      return fail(
        item.key,
        `${size}, more than the ${options.maxBytes} allowed (UPLOAD_MAX_BYTES): not read`,
        true,
      )
    }
    try {
      const data = item.content ?? (await reader.read(item, options.maxBytes, signal))
      const { action, document } = await registerDocument(deps, options, {
        filename: name,
        data,
        collection: source.collection,
        ...(item.webPage ? { sourceUrl: item.key } : { keepPath: true }),
      })
      await recordItem(pool, source.id, {
        key: item.key,
        version: item.version,
        documentId: document.id,
        ...(item.extra ? { extra: item.extra } : {}),
      }).catch(async (error: unknown) => {
        // The source was removed while this sync ran: what it just brought goes too.
        if ((error as { code?: string }).code !== '23503') throw error
        if (action === 'created') await deleteDocument(deps, document.id)
        throw new SourceRemovedError()
      })
      if (action === 'created' && !before) counts.added++
      else if (action === 'unchanged') counts.unchanged++
      else counts.changed++
    } catch (error) {
      if (error instanceof UploadRejectedError) fail(item.key, error.message, true)
      else if (error instanceof ItemError) fail(item.key, error.message, false)
      else throw error
    }
  }

  let listingError: string | null = null
  let removed = false
  // Items are read a few at a time while the listing goes on (each read waits on the place's
  // network): at most READS_AT_ONCE, and the listing waits when twice as many are pending.
  const limit = pLimit(READS_AT_ONCE)
  const pending = new Set<Promise<void>>()
  let broken: unknown
  try {
    for await (const item of reader.list(known, signal)) {
      if (signal.aborted) throw new SourceListingError('the sync was stopped')
      if (broken !== undefined || removed) break
      counts.seen++
      seen.add(item.key)
      const task: Promise<void> = limit(() => take(item))
        .catch((error: unknown) => {
          if (error instanceof SourceRemovedError) removed = true
          else broken ??= error
        })
        .finally(() => pending.delete(task))
      pending.add(task)
      if (pending.size >= READS_AT_ONCE * 2) await Promise.race(pending)
      await progress()
    }
  } catch (error) {
    if (!(error instanceof SourceListingError) && !signal.aborted) {
      await Promise.all(pending)
      throw error
    }
    listingError = signal.aborted ? 'the sync was stopped before the listing ended' : describeError(error)
  }
  await Promise.all(pending)
  // Something other than an item's own problem (the database gone): the job fails and is retried.
  if (broken !== undefined) throw broken
  if (removed) {
    logger.info({ source: source.name, sync: id }, 'source removed while it synced: the sync stopped')
    return {
      ...(await emptySync(id, source.id, options.trigger)),
      status: 'failed',
      error: 'the source was removed',
    }
  }

  if (listingError === null && unreadable === 0) {
    for (const [key, item] of known) {
      if (seen.has(key)) continue
      if (item.documentId) await deleteDocument(deps, item.documentId)
      await forgetItem(pool, source.id, key)
      counts.deleted++
    }
  }
  const status = listingError !== null ? 'failed' : counts.failed > 0 ? 'partial' : 'done'
  const error =
    listingError ??
    (unreadable > 0
      ? `${unreadable} item(s) could not be read: nothing was deleted in this sync`
      : counts.failed > 0
        ? `${counts.failed} item(s) refused (too large, or a name or type not taken); the rest is in sync`
        : null)
  await updateSyncRecord(pool, id, counts, failures, { status, error })
  await options.onProgress?.({ ...counts })
  logger.info({ source: source.name, sync: id, status, ...counts }, 'source synced')
  return (await getSync(pool, id)) as SyncRecord
}
