import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ingestionDefaults } from '@rag/config'
import { DEFAULT_PARSE_LIMITS } from '@rag/parsers'
import {
  japanesePageImage,
  scannedJapanesePdf,
  threeSlideDeck,
  workbookWithMergedHeaders,
} from '@rag/parsers/testing'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { registerDocument } from './register-document.ts'
import { documentSections, getDocument } from './repository/documents.ts'
import { type IngestionFixture, startIngestionFixture, waitForDocument } from './testing.ts'

// The documents people have, through the whole pipeline: a scanned Japanese PDF and a photo of a
// page (OCR), a two-sheet workbook with merged headers, a three-slide deck; each ends ready with
// its exact source ids, and the bad ones fail saying why.
let fixture: IngestionFixture
let ocrOff: IngestionFixture
let uploadDir: string
const LINES = ['保証期間はお買い上げ日から2年間です。', '満充電までの時間は約3時間です。']

beforeAll(async () => {
  fixture = await startIngestionFixture('office-files')
  ocrOff = await startIngestionFixture('office-files-ocr-off', {
    settings: {
      parsing: {
        sandbox: { memoryMb: 1536, timeoutMs: 600_000 },
        limits: DEFAULT_PARSE_LIMITS,
        ocr: { ...ingestionDefaults().parsing.ocr, mode: 'off' },
      },
    },
  })
  uploadDir = await mkdtemp(join(tmpdir(), 'rag-office-'))
})

afterAll(async () => {
  await fixture?.close()
  await ocrOff?.close()
  await rm(uploadDir, { recursive: true, force: true })
})

async function ingest(target: IngestionFixture, filename: string, data: Uint8Array) {
  const { document } = await registerDocument(
    { pool: target.db.pool, producer: target.producer, logger: target.logger },
    { uploadDir, maxBytes: 50e6 },
    { filename, data },
  )
  const done = await waitForDocument(target.db.pool, document.id, 90_000)
  return { done, sections: (await documentSections(target.db.pool, document.id)).sections }
}

it('reads a scanned Japanese PDF and a photo of a page by OCR, page ids unchanged, marked as OCR', async () => {
  const scan = await ingest(fixture, 'scan.pdf', await scannedJapanesePdf(LINES))
  expect(scan.done.status).toBe('ready')
  expect(scan.sections.map((s) => [s.sourceId, s.ocr])).toEqual([['scan.pdf:p1', true]])
  expect(scan.sections[0]?.text).toContain('保証期間はお買い上げ日から2年間です')
  const photo = await ingest(fixture, 'page.png', await japanesePageImage(LINES))
  expect(photo.done.status).toBe('ready')
  expect(photo.sections.map((s) => [s.sourceId, s.ocr])).toEqual([['page.png:p1', true]])
  expect(photo.sections[0]?.text).toContain('満充電までの時間は約3時間です')
  // Each says how OCR read its page: how sure it was, and which way the text ran.
  for (const { done } of [scan, photo]) {
    const readings = (await getDocument(fixture.db.pool, done.id))?.ocrReadings
    expect(readings).toEqual([{ page: 1, confidence: expect.any(Number), direction: 'horizontal' }])
    expect(readings?.[0]?.confidence).toBeGreaterThan(50)
  }
})

it('reads a workbook row by row and a deck slide by slide, with exact source ids', async () => {
  const book = await ingest(fixture, 'book.xlsx', await workbookWithMergedHeaders())
  expect(book.done.status).toBe('ready')
  expect(book.sections.map((s) => s.sourceId)).toEqual([
    'book.xlsx:売上!r3',
    'book.xlsx:売上!r4',
    'book.xlsx:売上!r5',
    'book.xlsx:在庫!r2',
    'book.xlsx:在庫!r3',
  ])
  expect(book.sections[2]?.text).toBe('店舗: 梅田店\n売上 上期: 70\n売上 下期: 95\n合計: 165\n地域: 大阪')
  const deck = await ingest(fixture, 'deck.pptx', await threeSlideDeck())
  expect(deck.done.status).toBe('ready')
  expect(deck.sections.map((s) => [s.sourceId, s.heading])).toEqual([
    ['deck.pptx:s1', 'ルミナ L-200 のご紹介'],
    ['deck.pptx:s2', '仕様'],
    // The slide's table: a section per row, with the first row's column names.
    ['deck.pptx:s2:t1:r1', '仕様'],
    ['deck.pptx:s2:t1:r2', '仕様'],
    ['deck.pptx:s3', '保証'],
  ])
  expect(deck.sections[2]?.text).toBe('仕様 — 項目: 重さ / 値: 1.2 kg')
  expect(deck.sections[4]?.text).toContain('延長保証に加入すると最長5年まで延長できます。')
})

it('fans a large sheet out in parts, every row ready with its own source id', async () => {
  const { default: ExcelJS } = await import('exceljs')
  const workbook = new ExcelJS.Workbook()
  const sheet = workbook.addWorksheet('ログ')
  sheet.addRow(['日付', '件名', '担当'])
  // Rows long enough that a part holds SECTIONS_PER_PART of them (small rows are packed more to a part).
  const detail = '電源ランプが点滅して充電できないとの問い合わせ。ケーブルの交換で解決した。'.repeat(12)
  for (let i = 1; i <= 240; i++)
    sheet.addRow([
      `2026-01-${String((i % 28) + 1).padStart(2, '0')}`,
      `問い合わせ ${i} ${detail}`,
      i % 2 ? '佐藤' : '鈴木',
    ])
  const big = await ingest(fixture, 'log.xlsx', Buffer.from(await workbook.xlsx.writeBuffer()))
  expect(big.done.status).toBe('ready')
  expect(big.sections).toHaveLength(240)
  expect(big.sections.at(-1)).toMatchObject({
    sourceId: 'log.xlsx:ログ!r241',
    text: expect.stringContaining('件名: 問い合わせ 240'),
  })
  const { rows } = await fixture.db.pool.query<{ parts: number }>(
    'SELECT parts_total AS parts FROM documents WHERE id = $1',
    [big.done.id],
  )
  expect(rows[0]?.parts).toBeGreaterThan(1)
})

it('fails a scanned PDF with OCR off and a corrupt workbook, each with its reason', async () => {
  const scan = await ingest(ocrOff, 'scan.pdf', await scannedJapanesePdf(LINES.slice(0, 1)))
  expect(scan.done).toMatchObject({
    status: 'failed',
    error: expect.stringMatching(/^parse: .*OCR is off \(OCR=off\)/),
  })
  const broken = await ingest(fixture, 'broken.xlsx', (await workbookWithMergedHeaders()).subarray(0, 3000))
  expect(broken.done).toMatchObject({
    status: 'failed',
    error: expect.stringMatching(/^parse: not a readable Excel/),
  })
})
