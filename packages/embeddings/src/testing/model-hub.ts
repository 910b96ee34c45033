import { createReadStream } from 'node:fs'
import { access } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'

export interface ModelHub {
  /** For MODEL_ENDPOINT, ending with "/". */
  endpoint: string
  /** Paths asked for, in order. */
  requested: string[]
  close(): Promise<void>
}

/**
 * A model hub on loopback serving `dir/<org>/<name>/<file>` the way the Hugging Face hub (or a
 * mirror of it) does: GET /<org>/<name>/resolve/main/<file>; anything else is a 404.
 */
export async function serveModelHub(dir: string): Promise<ModelHub> {
  const requested: string[] = []
  const server = createServer((request, response) => {
    requested.push(request.url ?? '')
    const match = /^\/([^/]+\/[^/]+)\/resolve\/main\/(.+)$/.exec(request.url ?? '')
    const path = match ? join(dir, match[1] ?? '', decodeURIComponent(match[2] ?? '')) : ''
    access(path).then(
      () => createReadStream(path).pipe(response),
      () => response.writeHead(404).end('Entry not found'),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requested,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
