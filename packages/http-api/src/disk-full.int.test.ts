import { execFileSync } from 'node:child_process'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { requireTestAsset } from '@rag/config/testing'
import { readTestConfig } from '@rag/db/testing'
import { registerDocument } from '@rag/ingest'
import { type IngestionFixture, startIngestionFixture } from '@rag/ingest/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type TestGateway } from './testing.ts'

// Uploads onto a disk that fills up: a 3 MB file system of the test's own (tmpfs), mounted where
// mounting is allowed (root on Linux, as CI runs); elsewhere the test says why it does not run,
// and under CI=true that fails the run instead.
const mountPoint = await mkdtemp(join(tmpdir(), 'rag-disk-full-'))
let canMount = false
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', mountPoint], { stdio: 'ignore' })
  canMount = true
} catch {}
const mounted = requireTestAsset(
  readTestConfig(),
  `a small tmpfs mounted at ${mountPoint}`,
  canMount,
  'run as root on Linux',
)

let fixture: IngestionFixture
let gateway: TestGateway

beforeAll(async () => {
  if (!mounted) return
  fixture = await startIngestionFixture('disk-full')
  gateway = await createTestGateway(
    { ...fixture, pool: fixture.db.pool },
    { uploadDir: mountPoint, maxBytes: 10_000_000, maxFiles: 5 },
  )
})
afterAll(async () => {
  await gateway?.close()
  await fixture?.close()
  // Lazily: a worker may still hold the last file open as it closes.
  if (mounted) execFileSync('umount', ['-l', mountPoint])
  await rm(mountPoint, { recursive: true, force: true })
})

const upload = (name: string, bytes: number) => {
  const form = new FormData()
  form.append('file', new Blob([Buffer.alloc(bytes, 'a')]), name)
  return gateway.app.request('/documents', { method: 'POST', body: form })
}
/** Files left anywhere under the upload folder. */
const leftovers = async () =>
  (await readdir(mountPoint, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)

describe.skipIf(!mounted)('a full disk', () => {
  it('answers 507 with the space left (never the server folder), and keeps no partial file', async () => {
    // Too large to spool at all.
    const spooled = await upload('big.txt', 5 * 1024 * 1024)
    expect(spooled.status).toBe(507)
    const spooledError = ((await spooled.json()) as { error: { message: string } }).error.message
    expect(spooledError).toMatch(
      /^no space left on the server to store (big\.txt|the upload) \(\d+\.\d MB free in the upload folder\)/,
    )
    // Where the server keeps uploads is the operator's business, not the client's.
    expect(spooledError).not.toContain(mountPoint)
    expect(await leftovers()).toEqual([])

    // Bytes in memory (a fetched page, a watched folder's file) with no room to store them.
    const stored = registerDocument(
      { pool: fixture.db.pool, producer: fixture.producer, logger: fixture.logger },
      { uploadDir: mountPoint, maxBytes: 10_000_000 },
      { filename: 'page.html', data: Buffer.alloc(5 * 1024 * 1024, 'a') },
    )
    await expect(stored).rejects.toMatchObject({
      status: 507,
      message: expect.stringMatching(
        /^no space left on the server to store page\.html \(.* MB free in the upload folder\)/,
      ),
    })
    expect(await leftovers()).toEqual([])

    // A spooled upload is moved into place, not copied: one that fits the disk once is taken.
    expect((await upload('half.txt', 2 * 1024 * 1024)).status).toBe(202)

    // The disk now full to the last byte: even a 1 KB upload is 507, not a "malformed body".
    const filler = join(mountPoint, 'filler')
    await writeFile(filler, Buffer.alloc(4 * 1024 * 1024)).catch(() => undefined)
    try {
      const tiny = await upload('note.txt', 1024)
      expect(tiny.status).toBe(507)
      expect(((await tiny.json()) as { error: { message: string } }).error.message).toMatch(/^no space left/)
    } finally {
      await rm(filler, { force: true })
    }
  })

  it('is reported by /healthz as low space in the upload folder, while the rest stays up', async () => {
    const health = (await (await gateway.app.request('/healthz')).json()) as {
      disk: Record<string, { path: string; low: boolean }>
      degraded: string[]
    }
    expect(health.disk.uploads).toMatchObject({ path: mountPoint, low: true })
    expect(health.degraded).toContainEqual(expect.stringMatching(/^disk space \(uploads: .* MB free\)$/))
  })
})
