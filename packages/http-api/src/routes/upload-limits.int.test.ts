import { rm } from 'node:fs/promises'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type GatewayServer, startGatewayServer } from '../testing.ts'

// 1,000,000 bytes a file and up to 1,000 files: the whole request may be 1 GB, so only reading
// the upload as it streams (not the request size) stops one huge file early.
let server: GatewayServer
const uploadDir = join(tmpdir(), `rag-upload-limits-${process.pid}`)

beforeAll(async () => {
  server = await startGatewayServer('upload-limits', {
    gateway: { uploads: { uploadDir, maxBytes: 1_000_000, maxFiles: 1000 } },
  })
})
afterAll(async () => {
  await server?.close()
  await rm(uploadDir, { recursive: true, force: true })
})

/** A multipart upload of one file of `bytes` bytes, produced as it is sent (never held whole). */
function streamedUpload(bytes: number) {
  const encoder = new TextEncoder()
  const head = encoder.encode(
    '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="huge.txt"\r\nContent-Type: text/plain\r\n\r\n',
  )
  const block = new Uint8Array(1024 * 1024).fill(0x61)
  let sent = 0
  let first = true
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (first) {
        first = false
        controller.enqueue(head)
      } else if (sent < bytes) {
        sent += block.length
        controller.enqueue(block)
      } else {
        controller.enqueue(encoder.encode('\r\n--XyZ--\r\n'))
        controller.close()
      }
    },
  })
  return { stream, sent: () => sent }
}

it('a 1 GB upload is refused with 413 once it passes the limit, with bounded gateway memory', async () => {
  const before = process.memoryUsage().rss
  let peak = before
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 20)
  const upload = streamedUpload(1024 * 1024 * 1024)
  const response = await fetch(`${server.baseUrl}/documents`, {
    method: 'POST',
    headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
    body: upload.stream,
    duplex: 'half',
  } as RequestInit)
  clearInterval(sampler)
  expect(response.status).toBe(413)
  expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
    'huge.txt is larger than 1000000 bytes (UPLOAD_MAX_BYTES)',
  )
  // Refused once past the limit, not after reading the gigabyte (the client was stopped early).
  expect(upload.sent()).toBeLessThan(256 * 1024 * 1024)
  expect(peak - before).toBeLessThan(200 * 1024 * 1024)
})

it('an upload that declares more than the request limit is refused before its body is read', async () => {
  const url = new URL(`${server.baseUrl}/documents`)
  const status = await new Promise<number>((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          'content-type': 'multipart/form-data; boundary=XyZ',
          'content-length': String(2 * 1024 ** 3),
        },
      },
      (response) => {
        response.resume()
        resolve(response.statusCode ?? 0)
        request.destroy()
      },
    )
    request.on('error', reject)
    // Only the start of the body is ever sent: the answer must not wait for the rest.
    request.write('--XyZ\r\n')
  })
  expect(status).toBe(413)
})
