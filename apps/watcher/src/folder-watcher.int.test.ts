import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isDocumentFinished } from '@rag/api-contract/enums'
import type { TestDatabase } from '@rag/db/testing'
import { listDocuments } from '@rag/ingest'
import { type IngestionFixture, startIngestionFixture } from '@rag/ingest/testing'
import { createLogger } from '@rag/log'
import type { Producer } from '@rag/queue'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FolderWatcher, startFolderWatcher } from './folder-watcher.ts'

const logger = createLogger({ name: 'test', level: 'silent' })
let db: TestDatabase
let producer: Producer
let fixture: IngestionFixture
let root: string
let inbox: string

beforeAll(async () => {
  fixture = await startIngestionFixture('watcher')
  ;({ db, producer } = fixture)
  root = await mkdtemp(join(tmpdir(), 'rag-watch-'))
  inbox = join(root, 'inbox')
  await mkdir(join(inbox, 'manuals'), { recursive: true })
})

afterAll(async () => {
  await fixture?.close()
  await rm(root, { recursive: true, force: true })
})

const start = () =>
  startFolderWatcher(
    { pool: db.pool, producer, logger },
    { dir: inbox, collection: 'inbox', uploadDir: join(root, 'uploads'), maxBytes: 1_000_000 },
  )

/** filename → status and chunk text, once every document in the collection is finished. */
async function settledInbox() {
  let documents = await listDocuments(db.pool, { collection: 'inbox' })
  await expect
    .poll(
      async () => {
        documents = await listDocuments(db.pool, { collection: 'inbox' })
        return documents.every((d) => isDocumentFinished(d.status))
      },
      { timeout: 15000 },
    )
    .toBe(true)
  const result: Record<string, string> = {}
  for (const document of documents) {
    const { rows } = await db.pool.query<{ text: string }>(
      'SELECT text FROM chunks WHERE document_id = $1 ORDER BY id',
      [document.id],
    )
    result[document.filename] = `${document.status}: ${rows.map((r) => r.text).join(' | ')}`
  }
  return result
}

describe('the watched folder', () => {
  let watcher: FolderWatcher

  it('ingests files added to it, including in subfolders, and ignores hidden and unsupported ones', async () => {
    watcher = start()
    await watcher.ready
    await writeFile(join(inbox, 'a.txt'), 'first file')
    await writeFile(join(inbox, 'manuals', 'b.md'), '# B\n\nsecond file')
    await writeFile(join(inbox, '.hidden.txt'), 'secret')
    await writeFile(join(inbox, 'clip.mp4'), 'mp4')
    await expect
      .poll(async () => Object.keys(await settledInbox()).sort(), { timeout: 15000 })
      .toEqual(['a.txt', 'manuals/b.md'])
    expect(await settledInbox()).toEqual({
      'a.txt': 'ready: first file',
      'manuals/b.md': 'ready: B\n\nsecond file',
    })
  })

  it('re-indexes a changed file and deletes the document of a removed one', async () => {
    await writeFile(join(inbox, 'a.txt'), 'first file, edited')
    await rm(join(inbox, 'manuals', 'b.md'))
    await expect
      .poll(async () => settledInbox(), { timeout: 15000 })
      .toEqual({ 'a.txt': 'ready: first file, edited' })
  })

  it('catches up on start with what changed while it was not running', async () => {
    await watcher.idle()
    await watcher.close()
    await rm(join(inbox, 'a.txt'))
    await writeFile(join(inbox, 'c.csv'), 'q,a\nwhy,because\n')
    watcher = start()
    await watcher.ready
    await expect
      .poll(async () => settledInbox(), { timeout: 15000 })
      .toEqual({ 'c.csv': 'ready: q: why\na: because' })
    await watcher.close()
  })
})
