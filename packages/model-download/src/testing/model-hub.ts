import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'

export interface ModelHub {
  /** For MODEL_ENDPOINT, ending with "/". */
  endpoint: string
  /** Paths asked for, in order (with the Range header when there was one). */
  requested: string[]
  close(): Promise<void>
}

export interface ModelHubOptions {
  /** The first response for a path ending with this is cut after `bytes` (a dropped connection). */
  cut?: { suffix: string; bytes: number }
  /** The CDN serves other bytes for a path ending with this (a bad mirror), the hub's hash unchanged. */
  tamper?: string
}

/**
 * A model hub on loopback serving `dir/<org>/<name>/<file>` the way the Hugging Face hub does:
 * GET /<org>/<name>/resolve/main/<file> answers a small file itself, and a large (Git LFS) one —
 * here every .onnx — with a 302 to its CDN carrying the file's sha256 in X-Linked-Etag; the CDN
 * (/cdn/…) sends the bytes, with byte ranges (206) for resumed downloads, and no hash. Anything
 * else is a 404.
 */
export async function serveModelHub(dir: string, options: ModelHubOptions = {}): Promise<ModelHub> {
  const requested: string[] = []
  const cutDone = new Set<string>()
  const server = createServer(async (request, response) => {
    const range = request.headers.range
    requested.push(range ? `${request.url} ${range}` : (request.url ?? ''))
    const match = /^\/(cdn\/)?([^/]+\/[^/]+)\/(?:resolve\/main\/)?(.+)$/.exec(request.url ?? '')
    const fromCdn = Boolean(match?.[1])
    const file = decodeURIComponent(match?.[3] ?? '')
    const path =
      match && (fromCdn || request.url?.includes('/resolve/main/')) ? join(dir, match[2] ?? '', file) : ''
    const info = path ? await stat(path).catch(() => null) : null
    if (!info?.isFile()) {
      response.writeHead(404).end('Entry not found')
      return
    }
    if (!fromCdn && file.endsWith('.onnx')) {
      const sha256 = createHash('sha256')
        .update(await readFile(path))
        .digest('hex')
      response.writeHead(302, {
        location: `/cdn/${match?.[2]}/${match?.[3]}`,
        'x-linked-etag': `"${sha256}"`,
        'x-linked-size': info.size,
      })
      response.end()
      return
    }
    const start = Number(/^bytes=(\d+)-$/.exec(range ?? '')?.[1] ?? 0)
    const headers = { 'accept-ranges': 'bytes' }
    if (options.tamper && path.endsWith(options.tamper)) {
      const bytes = await readFile(path)
      bytes[0] = (bytes[0] ?? 0) ^ 0xff
      response.writeHead(200, { ...headers, 'content-length': bytes.length }).end(bytes)
      return
    }
    if (start > 0) {
      response.writeHead(206, {
        ...headers,
        'content-length': info.size - start,
        'content-range': `bytes ${start}-${info.size - 1}/${info.size}`,
      })
    } else response.writeHead(200, { ...headers, 'content-length': info.size })
    const cut = options.cut && path.endsWith(options.cut.suffix) && !cutDone.has(path)
    if (cut && options.cut) {
      cutDone.add(path)
      const stream = createReadStream(path, { start, end: start + options.cut.bytes - 1 })
      stream.on('data', (chunk) => response.write(chunk))
      // Ends the connection once the bytes written are flushed: destroying it at once could drop
      // them, and the client would see a cut at byte 0 instead of mid-file.
      stream.on('end', () => response.socket?.end())
      return
    }
    createReadStream(path, { start }).pipe(response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requested,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
