import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { serve } from '@hono/node-server'
import type { TestDatabase } from '@rag/db/testing'
import { createApp } from '@rag/gateway/create-app'
import { keywordOnlySearch } from '@rag/gateway/testing'
import { type IngestionFixture, startIngestionFixture } from '@rag/ingest/testing'
import { createLogger } from '@rag/log'
import type { Producer } from '@rag/queue'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGatewayClient } from './gateway-client.ts'
import { runIngestCommand } from './ingest-command.ts'

// The CLI against a real gateway on a real port, with the ingestion workers running.
const logger = createLogger({ name: 'test', level: 'silent' })
const sampleDir = fileURLToPath(new URL('../../../data/sample/', import.meta.url))
let db: TestDatabase
let producer: Producer
let fixture: IngestionFixture
let dir: string
let server: ReturnType<typeof serve>
let baseUrl: string

beforeAll(async () => {
  fixture = await startIngestionFixture('cli')
  ;({ db, producer } = fixture)
  dir = await mkdtemp(join(tmpdir(), 'rag-cli-'))
  const app = createApp({
    ...keywordOnlySearch,
    pool: db.pool,
    producer,
    logger,
    queuePrefix: fixture.prefix,
    uploads: { uploadDir: join(dir, 'uploads'), maxBytes: 1_000_000, maxFiles: 10 },
  })
  server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 })
  await new Promise((resolve) => server.once('listening', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  await fixture.close()
  await rm(dir, { recursive: true, force: true })
})

function capture() {
  const lines: string[] = []
  const output = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean))
      done()
    },
  })
  return { lines, output }
}

describe('pnpm ingest', () => {
  it('ingests a folder and exits 0 when every document is ready', async () => {
    const { lines, output } = capture()
    const code = await runIngestCommand({
      paths: [sampleDir],
      client: createGatewayClient({ baseUrl }),
      output,
      pollMs: 50,
    })
    expect(code).toBe(0)
    expect(lines).toContain(`ready ${join(sampleDir, 'lumina-guide.pdf')} (5 chunks)`)
    expect(lines.at(-1)).toBe('5 ready, 0 failed')
    // Without a terminal, stage changes are printed as lines.
    expect(lines.some((line) => line.endsWith('faq.csv: ready'))).toBe(true)
  })

  it('exits 1 with the reasons when a file fails or is refused', async () => {
    await writeFile(join(dir, 'broken.pdf'), 'not a pdf')
    await writeFile(join(dir, 'ok.txt'), 'fine text')
    await writeFile(join(dir, 'image.png'), 'png')
    const { lines, output } = capture()
    const code = await runIngestCommand({
      paths: [join(dir, 'broken.pdf'), join(dir, 'ok.txt'), join(dir, 'image.png'), join(dir, 'missing.md')],
      client: createGatewayClient({ baseUrl }),
      output,
      pollMs: 50,
    })
    expect(code).toBe(1)
    expect(lines).toContain(`FAILED ${join(dir, 'broken.pdf')}: parse: not a PDF file (no %PDF header)`)
    expect(lines).toContain(`FAILED ${join(dir, 'image.png')}: unsupported file type`)
    expect(lines).toContain(`FAILED ${join(dir, 'missing.md')}: no such file or folder`)
    expect(lines.at(-1)).toBe('1 ready, 3 failed')
  })

  it('says how to start the gateway when it cannot be reached', async () => {
    await writeFile(join(dir, 'a.txt'), 'x')
    const { lines, output } = capture()
    const code = await runIngestCommand({
      paths: [join(dir, 'a.txt')],
      client: createGatewayClient({ baseUrl: 'http://127.0.0.1:9' }),
      output,
    })
    expect(code).toBe(1)
    expect(lines.join('\n')).toMatch(/cannot reach the gateway at http:\/\/127\.0\.0\.1:9 .*pnpm start/)
  })
})
