import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ingestionDefaults } from '@rag/config'
import { createLogger } from '@rag/log'
import { DEFAULT_PARSE_LIMITS } from '@rag/parsers'
import { deepHtml, inflatingPdf, japaneseCidPdf, manyPagesPdf, pdfStream, rawPdf } from '@rag/parsers/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import yazl from 'yazl'
import { registerDocument } from './register-document.ts'
import { documentSections } from './repository/documents.ts'
import { type IngestionFixture, startIngestionFixture, waitForDocument } from './testing.ts'

// The failure classes real-world files showed, each made here: every one must end failed with its
// reason or ready with the right text, in bounded time, while a small document uploaded right
// after it is ready within seconds (the parse worker is not stalled by its neighbour).

const logger = createLogger({ name: 'test', level: 'silent' })
let fixture: IngestionFixture
let uploadDir: string

beforeAll(async () => {
  fixture = await startIngestionFixture('hostile', {
    concurrency: 4,
    settings: {
      parsing: {
        // A deadline far past any of these files, so on a loaded machine their own limits, not the clock, stop them.
        sandbox: { memoryMb: 768, timeoutMs: 600_000 },
        limits: { ...DEFAULT_PARSE_LIMITS, maxUnzippedBytes: 32 * 1024 * 1024 },
        ocr: ingestionDefaults().parsing.ocr,
      },
    },
  })
  uploadDir = await mkdtemp(join(tmpdir(), 'rag-hostile-'))
})

afterAll(async () => {
  await fixture?.close()
  await rm(uploadDir, { recursive: true, force: true })
})

const upload = (filename: string, data: Uint8Array) =>
  registerDocument(
    { pool: fixture.db.pool, producer: fixture.producer, logger },
    { uploadDir, maxBytes: 50 * 1024 * 1024 },
    { filename, data },
  )

function zipBomb(): Promise<Buffer> {
  const zip = new yazl.ZipFile()
  zip.addBuffer(Buffer.from('<?xml version="1.0"?><Types/>'), '[Content_Types].xml')
  zip.addBuffer(Buffer.alloc(128 * 1024 * 1024, 0x20), 'word/document.xml')
  zip.end()
  const chunks: Buffer[] = []
  return new Promise((resolve) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk))
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)))
  })
}

/** A text layer with NUL characters in it (some PDF producers write them). */
const pdfWithNul = () =>
  rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    pdfStream('', Buffer.from('BT /F1 12 Tf 20 100 Td (warranty\\000 two years) Tj ET', 'latin1')),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ])

const CASES: { name: string; make: () => Buffer | Promise<Buffer>; outcome: RegExp | string }[] = [
  { name: 'bomb.pdf', make: () => inflatingPdf(256), outcome: /^parse: exceeded 768 MiB of memory/ },
  {
    name: 'deep.html',
    make: () => deepHtml(100_000),
    outcome: /^parse: the HTML nests elements 100002 deep/,
  },
  { name: 'bomb.docx', make: zipBomb, outcome: /^parse: the DOCX file unpacks to 128 MiB; at most 32 MiB/ },
  { name: 'huge.pdf', make: () => manyPagesPdf(100_000), outcome: /^parse: the PDF has 100000 pages/ },
  { name: 'nul.pdf', make: pdfWithNul, outcome: 'warranty two years' },
  {
    name: 'nul.txt',
    make: () => Buffer.from('the warranty\u0000 lasts two years'),
    outcome: 'the warranty lasts two years',
  },
  {
    name: 'shift-jis-font.pdf',
    make: () => japaneseCidPdf(['保証期間は二年間です。'], '90ms-RKSJ-H'),
    outcome: '保証期間は二年間です。',
  },
  {
    name: 'vertical.pdf',
    make: () => japaneseCidPdf(['縦書きの説明書です。'], 'UniJIS-UCS2-V'),
    outcome: '縦書きの説明書です。',
  },
]

describe('hostile and real-world files', () => {
  it.each(CASES)(
    '$name ends as it should while a control document beside it is read and stored all the same',
    async ({ name, make, outcome }) => {
      const { document } = await upload(name, await make())
      const { document: control } = await upload(`control-${name}.txt`, Buffer.from(`control for ${name}`))
      const controlDone = await waitForDocument(fixture.db.pool, control.id, 120_000)
      expect(controlDone.status).toBe('ready')
      const done = await waitForDocument(fixture.db.pool, document.id, 60_000)
      if (typeof outcome === 'string') {
        expect(done.status, done.error ?? '').toBe('ready')
        const text = (await documentSections(fixture.db.pool, document.id)).sections
          .map((s) => s.text)
          .join('\n')
        expect(text).toBe(outcome)
      } else {
        expect(done.status).toBe('failed')
        expect(done.error).toMatch(outcome)
      }
    },
    300_000,
  )
})
