import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createGatewayClient } from '@rag/gateway-client'
import { type GatewayServer, startGatewayServer } from '@rag/http-api/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIngestCommand } from './ingest-command.ts'
import { captureLines as capture } from './testing/capture-lines.ts'

// A gateway that refuses an upload before reading it (a reader's key) stops reading and closes;
// TCP then resets the connection, and a client that had not yet read the refusal loses it
// ("fetch failed", seen on a loaded machine). The CLI must still say what the gateway said.
const ADMIN = 'cli-refused-admin-0123456789'
let server: GatewayServer
let readerKey: string

beforeAll(async () => {
  server = await startGatewayServer('cli-refused', {
    gateway: { access: { apiKeys: [ADMIN], corsOrigins: [], askPerMinute: 0, uploadsPerMinute: 0 } },
  })
  const admin = createGatewayClient({ baseUrl: server.baseUrl, apiKey: ADMIN })
  readerKey = (await admin.createKey({ name: 'reader', role: 'reader', collections: null })).key
})
afterAll(() => server?.close())

/** The network as the loaded machine had it: every request carrying a file is reset before its answer is read. */
async function resetOnFiles(url: string, init: RequestInit): Promise<Response> {
  if (init.body instanceof FormData && init.body.has('file')) {
    await fetch(url, init).then((response) => response.body?.cancel())
    throw new TypeError('fetch failed', {
      cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
    })
  }
  return fetch(url, init)
}

describe('rag ingest refused by the gateway', () => {
  it("says a reader's key needs the editor role, not that the gateway cannot be reached", async () => {
    const note = join(server.dir, 'note.txt')
    await writeFile(note, 'a short note')
    const { lines, output } = capture()
    const code = await runIngestCommand({
      paths: [note],
      client: createGatewayClient({ baseUrl: server.baseUrl, apiKey: readerKey, fetch: resetOnFiles }),
      output,
    })
    expect(code).toBe(1)
    expect(lines.join('\n')).not.toMatch(/cannot reach the gateway/)
    expect(lines).toContain(
      `FAILED ${note}: POST /documents needs the editor role; this key's role is reader`,
    )
  })

  it('still says the gateway cannot be reached when the reset was not a refusal', async () => {
    const admin = createGatewayClient({ baseUrl: server.baseUrl, apiKey: ADMIN, fetch: resetOnFiles })
    const note = join(server.dir, 'other.txt')
    await writeFile(note, 'another note')
    await expect(admin.upload(note, {})).rejects.toThrow(
      /cannot reach the gateway .*\(fetch failed: read ECONNRESET\)/,
    )
  })
})
