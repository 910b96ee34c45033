import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, open, rename, rm, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { pipeline } from 'node:stream/promises'

/** The file downloaded is not the one expected: deleted, never used. */
export class ChecksumError extends Error {
  override name = 'ChecksumError'
}

/** The hub has no such file (404): the model id, file name or MODEL_ENDPOINT is wrong. */
export class MissingFileError extends Error {
  override name = 'MissingFileError'
}

export interface DownloadProgress {
  file: string
  received: number
  total: number
}

export interface DownloadOptions {
  url: string
  destination: string
  /** The registry's pinned sha256 for this file; else the hub's own (X-Linked-Etag), if it sends one. */
  sha256?: string
  onProgress?: (progress: DownloadProgress) => void
  signal?: AbortSignal
}

const SHA256 = /^[0-9a-f]{64}$/

export async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256')
  await pipeline(createReadStream(path), hash)
  return hash.digest('hex')
}

const MAX_REDIRECTS = 5

/**
 * GET url, following redirects one by one: the hub answers a large (Git LFS) file with a redirect
 * to its CDN, and the file's sha256 (X-Linked-Etag) is on that redirect, not on the CDN's answer.
 * The first hash seen is kept.
 */
async function fetchFollowing(url: string, headers: Record<string, string>, signal?: AbortSignal) {
  let hubHash: string | undefined
  let at = url
  for (let hops = 0; ; hops++) {
    const response = await fetch(at, { headers, redirect: 'manual', signal }).catch((error: unknown) => {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause
      throw new Error(
        `${at}: cannot reach ${new URL(at).host} (${cause?.code ?? cause?.message ?? (error as Error).message}); is the hub (or MODEL_ENDPOINT) reachable from here?`,
      )
    })
    hubHash ??= response.headers.get('x-linked-etag')?.replace(/"/g, '').toLowerCase() || undefined
    const location = response.headers.get('location')
    if (response.status < 300 || response.status >= 400 || !location) return { response, hubHash }
    await response.body?.cancel()
    if (hops >= MAX_REDIRECTS) throw new Error(`${url}: more than ${MAX_REDIRECTS} redirects`)
    at = new URL(location, at).href
  }
}

/**
 * Downloads url to destination through `<destination>.part`: a cut connection leaves the part,
 * and the next call resumes it with a Range request (the hub answers 206; a server that ignores
 * ranges sends the whole file again). The finished file's sha256 is checked against the pinned
 * hash, or the hub's, before it is renamed into place; a mismatch deletes it and throws.
 */
export async function downloadFile(
  options: DownloadOptions,
): Promise<{ sha256: string | null; resumed: boolean }> {
  const { url, destination } = options
  const part = `${destination}.part`
  await mkdir(dirname(destination), { recursive: true })
  const have = (await stat(part).catch(() => null))?.size ?? 0
  const { response, hubHash } = await fetchFollowing(
    url,
    have > 0 ? { range: `bytes=${have}-` } : {},
    options.signal,
  )
  if (response.status === 404) throw new MissingFileError(`${url}: not on the hub (404)`)
  if (response.status === 416) {
    // The part is already whole (the cut came after the last byte): verify it as it is.
    await response.body?.cancel()
  } else if (!response.ok || !response.body) {
    throw new Error(`${url}: the hub answered ${response.status} ${response.statusText}`)
  }
  const resumed = response.status === 206
  const expected = options.sha256 ?? (hubHash && SHA256.test(hubHash) ? hubHash : undefined)
  if (response.status !== 416 && response.body) {
    const total = Number(response.headers.get('content-length') ?? 0) + (resumed ? have : 0)
    let received = resumed ? have : 0
    const file = destination.split('/').at(-1) ?? destination
    // Each piece is written before the next is read, so a connection cut mid-file leaves every byte
    // received in the part for the next attempt to resume from (a stream pipeline destroyed by the
    // cut could drop writes still pending).
    const handle = await open(part, resumed ? 'a' : 'w')
    try {
      for await (const piece of response.body as unknown as AsyncIterable<Uint8Array>) {
        await handle.write(piece)
        received += piece.length
        options.onProgress?.({ file, received, total })
      }
    } finally {
      await handle.close()
    }
  }
  const actual = await sha256Of(part)
  if (expected && actual !== expected) {
    await rm(part, { force: true })
    throw new ChecksumError(
      `${url}: sha256 ${actual} but ${options.sha256 ? 'the registry pins' : 'the hub reports'} ${expected}; the download was deleted (a corrupt transfer, a mirror serving other bytes, or the file changed upstream)`,
    )
  }
  await rename(part, destination)
  return { sha256: expected ? actual : null, resumed }
}
