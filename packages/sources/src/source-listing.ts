/** One thing a source holds: a file, an object, a page. */
export interface SourceItem {
  /** Its identity in the source: a path, an object key, a URL. */
  key: string
  /**
   * What changes when its content does, as the place says it (ETag, Git blob id, Last-Modified):
   * an item whose version is the one synced last time is not read again.
   */
  version: string
  /** Bytes, when the listing says (items past the size limit are refused without reading them). */
  size?: number
  /** What a later sync needs without reading it again (a web page's links). */
  extra?: Record<string, unknown>
  /** A web page's bytes are read while listing (its links are the listing): no second fetch. */
  content?: Uint8Array
  /** A web page: its document is named and cited by its URL (`key`) and read as HTML. */
  webPage?: boolean
  /** The document's name under the source when the key is not a path (a linked file's URL). */
  name?: string
  /**
   * It could not be taken while listing (a page answering 500, or redirecting off the site).
   * `refused`: its own for good, so deletions go on; otherwise nothing is deleted this sync.
   */
  failure?: { reason: string; refused: boolean }
}

/** A source as a sync reads it: its items, then each item's bytes. */
export interface SourceReader {
  /**
   * Every item, as the place lists it now. `known` is what the last sync saw (a crawler reuses an
   * unchanged page's links). Throws SourceListingError when the listing cannot be completed:
   * then nothing is deleted.
   */
  list(known: ReadonlyMap<string, KnownItem>, signal: AbortSignal): AsyncIterable<SourceItem>
  /** An item's bytes (at most `maxBytes`; more is an ItemError). */
  read(item: SourceItem, maxBytes: number, signal: AbortSignal): Promise<Uint8Array>
  /** What the reader holds open (a clone's scratch, a client). */
  close?(): Promise<void>
}

export interface KnownItem {
  version: string
  extra: Record<string, unknown> | null
}

/** The listing could not be completed (the server gone mid-walk, credentials refused, a limit hit). */
export class SourceListingError extends Error {
  override name = 'SourceListingError'
}

/** One item could not be read; the sync goes on with the others (and deletes nothing). */
export class ItemError extends Error {
  override name = 'ItemError'
}

/** The limits every reader keeps to, whatever the place does. */
export interface ReadLimits {
  /** Items a listing may hold before it is refused (a listing that pages forever). */
  maxItems: number
  /** An item's bytes (the upload limit). */
  maxBytes: number
  /** One request to the place. */
  requestTimeoutMs: number
}

/** An error in one line, with its cause (fetch says "fetch failed"; its cause says what). */
export const describeError = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
  // The S3 SDK says "UnknownError" for an answer it has no name for: its HTTP status says more.
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode
  if (status !== undefined && /^UnknownError$/.test(error.message))
    return status >= 300 && status < 400
      ? `the server answered ${status}, a redirect, and a sync follows none (give the source the address it redirects to)`
      : `the server answered ${status}`
  return `${error.message}${cause}`
}
