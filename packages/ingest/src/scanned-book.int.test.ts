import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isDocumentFinished } from '@rag/api-contract/enums'
import { ingestionDefaults } from '@rag/config'
import { bookPageWords, scannedBook } from '@rag/parsers/testing'
import { ocrJob } from '@rag/queue'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { registerDocument } from './register-document.ts'
import { reindexDocument } from './reindex-document.ts'
import { documentSections, getDocument } from './repository/documents.ts'
import { type IngestionFixture, startIngestionFixture, waitForDocument } from './testing.ts'

// A scanned book through the OCR page jobs: the parse hands each page without a text layer to an
// OCR job of its own and ends, so ordinary documents go on while the book is read page by page,
// with its progress shown and a page that cannot be read listed with its reason.
const PAGES = 60
const OVERSIZED = 31
let fixture: IngestionFixture
let uploadDir: string

beforeAll(async () => {
  const defaults = ingestionDefaults().parsing
  fixture = await startIngestionFixture('scanned-book', {
    concurrency: 2,
    // English only: tesseract reads these pages in a fraction of the time jpn+eng takes.
    settings: { parsing: { ...defaults, ocr: { ...defaults.ocr, languages: 'eng' } } },
  })
  uploadDir = await mkdtemp(join(tmpdir(), 'rag-book-upload-'))
})

afterAll(async () => {
  await fixture?.close()
  if (uploadDir) await rm(uploadDir, { recursive: true, force: true })
})

const register = async (filename: string, data: Uint8Array) =>
  (
    await registerDocument(
      { pool: fixture.db.pool, producer: fixture.producer, logger: fixture.logger },
      { uploadDir, maxBytes: 50e6 },
      { filename, data },
    )
  ).document.id

/** Polls the document until `until` holds of it (or it is finished), keeping every OCR progress it showed on the way. */
async function watch(
  id: string,
  until: (document: NonNullable<Awaited<ReturnType<typeof getDocument>>>) => boolean,
) {
  const seen: { read: number; total: number }[] = []
  for (;;) {
    const document = await getDocument(fixture.db.pool, id)
    if (!document) throw new Error(`document ${id} is gone`)
    if (document.ocrPages) seen.push(document.ocrPages)
    if (until(document) || isDocumentFinished(document.status)) return { document, seen }
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

it('reads a 60-page scan page by page in OCR jobs while other documents flow, reporting the page it cannot read', async () => {
  // The OCR queue held: whatever else happens, happens while the book's pages wait.
  const ocrQueue = fixture.producer.queues.get(ocrJob.name)
  if (!ocrQueue) throw new Error('no OCR queue')
  await ocrQueue.pause()
  const book = await register('book.pdf', await scannedBook(PAGES, { oversized: [OVERSIZED] }))

  // The parse is done (its slot free) and every page waits for its own OCR job.
  const parsed = await watch(book, (document) => document.partsTotal !== null)
  expect(parsed.document.status).toBe('parsing')
  expect(parsed.document.ocrPages).toEqual({ read: 0, total: PAGES })

  // Ordinary documents uploaded now are parsed and ready while the book waits.
  const others = await Promise.all(
    Array.from({ length: 8 }, (_, index) =>
      register(`note-${index}.txt`, Buffer.from(`Note ${index}: the ferry leaves at ${index + 6} o'clock.`)),
    ),
  )
  for (const id of others) expect((await waitForDocument(fixture.db.pool, id, 120_000)).status).toBe('ready')
  expect((await getDocument(fixture.db.pool, book))?.ocrPages).toEqual({ read: 0, total: PAGES })

  await ocrQueue.resume()
  const { document, seen } = await watch(book, () => false)
  expect(document.status).toBe('ready')
  // Progress page by page, never backwards.
  expect(seen.some(({ read }) => read > 0 && read < PAGES)).toBe(true)
  expect(seen.map(({ read }) => read)).toEqual([...seen.map(({ read }) => read)].sort((a, b) => a - b))
  // The oversized page is missing, with a reason naming the file's problem and the limit.
  expect(document.missingPages).toEqual([
    {
      page: OVERSIZED,
      reason: expect.stringMatching(
        /^page 31 is 200 × 200 inches; OCR reads pages of at most 80 million pixels/,
      ),
    },
  ])
  expect(document.ocrPages).toBeNull()

  // Every other page is its own section, in page order, holding what was printed on it.
  const { sections } = await documentSections(fixture.db.pool, book, { limit: 100 })
  const pages = Array.from({ length: PAGES }, (_, index) => index + 1).filter((page) => page !== OVERSIZED)
  expect(sections.map((section) => section.sourceId)).toEqual(pages.map((page) => `book.pdf:p${page}`))
  expect(sections.every((section) => section.ocr)).toBe(true)
  // How OCR read each page it read is kept with the document (the oversized one was never read).
  expect(document.ocrReadings?.map((reading) => reading.page)).toEqual(pages)
  expect(document.ocrReadings?.every((reading) => reading.direction === 'horizontal')).toBe(true)
  for (const [index, page] of pages.entries())
    expect(sections[index]?.text.replace(/\s+/g, ' ')).toContain(bookPageWords(page).slice(0, 20))
}, 600_000)

it('re-indexing reads no unchanged page again: its text comes from what OCR read before', async () => {
  const scan = await register('short-scan.pdf', await scannedBook(3))
  expect((await waitForDocument(fixture.db.pool, scan, 300_000)).status).toBe('ready')
  // What the first reading stored, marked: only a reading taken from the cache can carry the mark.
  const { rowCount } = await fixture.db.pool.query(
    `UPDATE ocr_page_cache
        SET text = jsonb_set(text::jsonb, '{paragraphs,0,text}',
                             to_jsonb((text::jsonb #>> '{paragraphs,0,text}') || ' 〈cached〉'))::text
      WHERE text LIKE $1`,
    [`%${bookPageWords(2).slice(0, 20)}%`],
  )
  expect(rowCount).toBe(1)
  expect(await reindexDocument({ pool: fixture.db.pool, producer: fixture.producer }, scan)).toBe(true)
  const again = await watch(scan, () => false)
  expect(again.document.status).toBe('ready')
  const { sections } = await documentSections(fixture.db.pool, scan, { limit: 10 })
  expect(sections.map((section) => section.text.includes('〈cached〉'))).toEqual([false, true, false])
}, 600_000)
