import { createHash, randomUUID } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { copyFile, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises'
import { basename, extname, join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { withTransaction } from '@rag/db'
import { detectSourceType, SUPPORTED_EXTENSIONS } from '@rag/parsers'
import { parseJob } from '@rag/queue'
import { diskFullMessage, isDiskFull } from './disk-space.ts'
import type { IngestDeps } from './ingest-deps.ts'
import {
  type DocumentRecord,
  findDocument,
  getDocument,
  insertDocument,
  renameDocument,
  replaceDocumentContent,
} from './repository/documents.ts'
import { readableUrl } from './web-page/readable-url.ts'

/** Something about the upload itself is wrong; the caller answers with `status` (HTTP 4xx). */
export class UploadRejectedError extends Error {
  constructor(
    /** 507: no space left to store it. */
    readonly status: 400 | 413 | 415 | 507,
    message: string,
  ) {
    super(message)
    this.name = 'UploadRejectedError'
  }
}

/**
 * The bytes of an upload: in memory, or a file already on disk (an upload spooled as it arrived,
 * on the upload folder's file system), which is moved into place, never read whole into memory.
 */
export type UploadContent = { data: Uint8Array; spooled?: undefined } | { spooled: string; data?: undefined }

export type UploadInput = UploadContent & {
  /** As the client named it: a relative path is kept, anything else cut to its last segment. */
  filename: string
  /** The name must be a relative path (folder watch: `manuals/guide.pdf`), each segment sanitised. */
  keepPath?: boolean
  collection?: string
  tags?: string[]
  /** A fetched web page: named and cited by its URL, read as HTML, fetched again on re-index. */
  sourceUrl?: string
}

/** The sha256 of a file, read as a stream. */
async function fileHash(path: string): Promise<string> {
  const hash = createHash('sha256')
  await pipeline(createReadStream(path), hash)
  return hash.digest('hex')
}

export interface RegisterOptions {
  uploadDir: string
  maxBytes: number
}

export type RegisterOutcome = { document: DocumentRecord; action: 'created' | 'replaced' | 'unchanged' }

/**
 * A display name that cannot escape anything: the last path segment, without control characters.
 * Stored files never use it (they live under generated names); it names the source (`x.pdf:p3`).
 */
export function safeRelativePath(raw: string): string {
  const segments = raw
    .replaceAll('\\', '/')
    .split('/')
    .filter((segment) => segment && segment !== '.')
  if (segments.length === 0 || segments.includes('..'))
    throw new UploadRejectedError(400, `invalid path ${JSON.stringify(raw)}`)
  return segments.map(safeFilename).join('/')
}

// Bidirectional controls make `evil\u202Efdp.exe` display as `evilexe.pdf`: never part of a name.
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu
const MAX_NAME = 255

export function safeFilename(raw: string): string {
  const name = basename(raw.replaceAll('\\', '/'))
    .replace(/\p{Cc}/gu, '')
    .replace(BIDI_CONTROLS, '')
    .trim()
  if (!name || name === '.' || name === '..')
    throw new UploadRejectedError(400, `invalid file name ${JSON.stringify(raw)}`)
  if (name.length <= MAX_NAME) return name
  // A long name is shortened in its stem, so it keeps the extension its type is read from.
  const extension = extname(name).slice(0, 16)
  return `${[...name.slice(0, name.length - extname(name).length)].slice(0, MAX_NAME - extension.length).join('')}${extension}`
}

/**
 * The name of an uploaded file: a relative path as a client sends it for a file from a folder
 * (`a/README.md` beside `b/README.md` must not replace it) is kept; anything that climbs or is
 * absolute (`../../etc/passwd`, `C:\\x`) is cut to its last segment.
 */
export function uploadedName(raw: string): string {
  const segments = raw.replaceAll('\\', '/').split('/')
  const relative = segments.length > 1 && segments[0] !== '' && !/^[A-Za-z]:$/.test(segments[0] ?? '')
  return relative && !segments.includes('..') ? safeRelativePath(raw) : safeFilename(raw)
}

/**
 * Records an upload and starts its ingestion. The same content under the same name in the same
 * collection is a no-op; new content replaces the old version once it is ready. The enqueue may
 * fail (Redis down): the document is safe in Postgres as `queued` and the reconciler starts it.
 */
export async function registerDocument(
  deps: IngestDeps,
  options: RegisterOptions,
  input: UploadInput,
): Promise<RegisterOutcome> {
  // A web page is named by its address as people read it (`https://host/規程集/出張.html`).
  const sourceUrl = input.sourceUrl?.replace(/\p{Cc}/gu, '').slice(0, 2000)
  const filename = sourceUrl
    ? readableUrl(sourceUrl)
    : input.keepPath
      ? safeRelativePath(input.filename)
      : uploadedName(input.filename)
  const sourceType = input.sourceUrl ? 'html' : detectSourceType(filename)
  if (!sourceType) {
    throw new UploadRejectedError(
      415,
      `unsupported file type ${JSON.stringify(extname(filename) || filename)}; supported: ${SUPPORTED_EXTENSIONS.join(' ')}`,
    )
  }
  const size = input.spooled === undefined ? input.data.length : (await stat(input.spooled)).size
  if (size === 0) throw new UploadRejectedError(400, `${filename} is empty`)
  if (size > options.maxBytes) {
    throw new UploadRejectedError(413, `${filename} is ${size} bytes; the limit is ${options.maxBytes}`)
  }
  const collection = input.collection?.trim() || 'default'
  const contentHash =
    input.spooled === undefined
      ? createHash('sha256').update(input.data).digest('hex')
      : await fileHash(input.spooled)

  // The bytes are written before the transaction (which holds a connection and the document's
  // row): inside it the file is only renamed into place. A full disk is the caller's 507.
  const staging = join(options.uploadDir, '.staging')
  const staged = join(staging, `${contentHash.slice(0, 32)}.${randomUUID()}.tmp`)
  try {
    await mkdir(staging, { recursive: true })
    if (input.spooled === undefined) await writeFile(staged, input.data)
    // A spooled file is moved (the same file system: no bytes copied); copied where it is not.
    else await rename(input.spooled, staged).catch(() => copyFile(input.spooled, staged))
  } catch (error) {
    await rm(staged, { force: true })
    if (isDiskFull(error))
      throw new UploadRejectedError(507, await diskFullMessage(options.uploadDir, filename))
    throw error
  }

  const outcome = await withTransaction(deps.pool, async (client) => {
    // (Named by its raw address before: found by it, renamed when its content changes.)
    const existing =
      (await findDocument(client, collection, filename, true)) ??
      (sourceUrl && sourceUrl !== filename ? await findDocument(client, collection, sourceUrl, true) : null)
    if (existing && existing.contentHash === contentHash && existing.status !== 'failed') {
      return { id: existing.id, action: 'unchanged' as const }
    }
    const id = existing?.id ?? randomUUID()
    const storedPath = join(
      options.uploadDir,
      id,
      `${contentHash.slice(0, 32)}${input.sourceUrl ? '.html' : extname(filename).toLowerCase()}`,
    )
    await mkdir(join(options.uploadDir, id), { recursive: true })
    await rename(staged, storedPath)
    const content = {
      contentHash,
      storedPath,
      sizeBytes: size,
      sourceType,
      ...(sourceUrl ? { sourceUrl } : {}),
    }
    if (existing && existing.filename !== filename) await renameDocument(client, id, filename)
    if (existing) await replaceDocumentContent(client, id, { ...content, tags: input.tags ?? existing.tags })
    else await insertDocument(client, { ...content, id, collection, filename, tags: input.tags ?? [] })
    return { id, action: existing ? ('replaced' as const) : ('created' as const) }
    // Unchanged content, or a failed transaction: the staged copy goes (once renamed, it is gone).
  }).finally(() => rm(staged, { force: true }))

  if (outcome.action !== 'unchanged') {
    await deps.producer
      .enqueueAgain(parseJob, { documentId: outcome.id, contentHash }, { priority: parsePriority(size) })
      .catch((error: unknown) => {
        deps.logger.warn(
          { err: error, documentId: outcome.id },
          'could not enqueue; the reconciler will start it',
        )
      })
  }
  const document = await getDocument(deps.pool, outcome.id)
  if (!document) throw new Error(`document ${outcome.id} vanished`)
  return { document, action: outcome.action }
}

/**
 * Smaller files are parsed first (BullMQ: 1 is the highest priority): a one-page note uploaded
 * behind a folder of large PDFs is searchable in seconds, not after all of them.
 */
export function parsePriority(bytes: number): number {
  return 1 + Math.floor(Math.log2(Math.max(1, bytes / 1024)))
}

/**
 * Re-indexing every document (POST /reindex) goes behind every upload, whatever its size: a
 * library re-parsed after a settings change must not hold up the note someone just dropped in.
 * (A job without a priority would run before all of them.)
 */
export const REINDEX_ALL_PRIORITY = 1000

/** Deletes a document, its chunks and its stored original. Returns false when there was none. */
export async function deleteDocument(deps: Pick<IngestDeps, 'pool'>, id: string): Promise<boolean> {
  const document = await getDocument(deps.pool, id)
  if (!document) return false
  await deps.pool.query('DELETE FROM documents WHERE id = $1', [id])
  await rm(join(document.storedPath, '..'), { recursive: true, force: true })
  return true
}
