import { execFile } from 'node:child_process'
import { access, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { processEnvironment } from '@rag/config'
import { requireTestAsset, testConfig } from '@rag/config/testing'
import { describe, expect, it } from 'vitest'
import { DEFAULT_OCR, readScannedPdfPage } from './ocr.ts'
import { parseDocument } from './parse-document.ts'
import type { ParsedSection } from './parsed-section.ts'
import { createParseSandbox, type SandboxReport } from './sandbox/parse-in-sandbox.ts'
import { verticalTextPdf } from './testing/laid-out-pdf.ts'
import { scannedCopy, scannedJapanesePdf } from './testing/office-samples.ts'
import { rawPdf } from './testing/raw-pdf.ts'

// A scanned Japanese page (typeset, rendered to 200 dpi grey, wrapped in a PDF without a text
// layer) read through OCR: tesseract and poppler from Debian's packages (.ci/run installs them).
const LINES = [
  'ルミナ L-200 取扱説明書',
  '本製品の保証期間はお買い上げ日から2年間です。',
  '満充電までの時間は約3時間です。バッテリーは満充電で最大8時間点灯します。',
  '浴室など湿気の多い場所では使用しないでください。',
]
const tool = promisify(execFile)
const installed = await tool('tesseract', ['--list-langs'])
  .then(({ stdout }) => stdout.split('\n').includes('jpn') && stdout.split('\n').includes('jpn_vert'))
  .catch(() => false)
requireTestAsset(
  testConfig.parse(processEnvironment()).test,
  'tesseract with Japanese (horizontal and vertical: jpn, jpn_vert)',
  installed,
  'bash scripts/install-ocr.sh',
)

const sectionsOf = async (data: Uint8Array, filename: string, options = {}) => {
  const sections: ParsedSection[] = []
  for await (const section of parseDocument(data, filename, 'pdf', options)) sections.push(section)
  return sections
}

/** Share of the source's characters (spaces aside) that OCR read back in order: 1 − edit distance / length. */
function characterAccuracy(source: string, read: string): number {
  const a = [...source.replace(/\s/g, '')]
  const b = [...read.replace(/\s/g, '')]
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      )
    previous = current
  }
  return 1 - (previous[b.length] ?? a.length) / a.length
}

describe.skipIf(!installed)('OCR of scanned pages', () => {
  it('reads a vertical (縦書き) scan column by column with the vertical model, saying how sure it is', async () => {
    const columns = [
      '吾輩は猫である。名前はまだ無い。',
      'どこで生れたかとんと見当がつかぬ。',
      '何でも薄暗い所で泣いていた。',
    ]
    const scan = await scannedCopy(await verticalTextPdf(columns))
    const dir = await mkdtemp(join(tmpdir(), 'rag-vertical-'))
    try {
      await writeFile(join(dir, 'scan.pdf'), scan)
      const reading = await readScannedPdfPage(join(dir, 'scan.pdf'), 1, { ...DEFAULT_OCR })
      expect(reading.direction).toBe('vertical')
      expect(reading.confidence).toBeGreaterThan(75)
      // At most 3 characters in 100 wrong, in reading order (right column first).
      expect(characterAccuracy(columns.join(''), reading.text)).toBeGreaterThanOrEqual(0.97)
      // Where it stands: the paragraphs' boxes, on the right half of the page, in points.
      expect(reading.paragraphs[0]?.box.x).toBeGreaterThan(297)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('reads a vertical (縦書き) picture uploaded as an image as it reads a scanned PDF page', async () => {
    const columns = ['吾輩は猫である。名前はまだ無い。', 'どこで生れたかとんと見当がつかぬ。']
    const dir = await mkdtemp(join(tmpdir(), 'rag-vertical-image-'))
    try {
      await writeFile(join(dir, 'scan.pdf'), await scannedCopy(await verticalTextPdf(columns)))
      await tool('pdftoppm', [
        '-r',
        '200',
        '-gray',
        '-png',
        '-singlefile',
        join(dir, 'scan.pdf'),
        join(dir, 'scan'),
      ])
      const units: string[] = []
      const readings: unknown[] = []
      for await (const section of parseDocument(await readFile(join(dir, 'scan.png')), 'scan.png', 'image')) {
        units.push(...section.units)
        readings.push(section.ocrReading)
      }
      const text = units.join('')
      // Read horizontally, it was noise; vertically, at most one character in ten wrong.
      expect(characterAccuracy(columns.join(''), text)).toBeGreaterThanOrEqual(0.9)
      // The page says how it was read: by the vertical model, and how sure that was.
      expect(readings).toEqual([{ page: 1, confidence: expect.any(Number), direction: 'vertical' }])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('keeps a horizontal page horizontal (the vertical model is tried only when the horizontal one is unsure)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rag-horizontal-'))
    try {
      await writeFile(join(dir, 'scan.pdf'), await scannedJapanesePdf(LINES))
      const reading = await readScannedPdfPage(join(dir, 'scan.pdf'), 1, { ...DEFAULT_OCR })
      expect(reading.direction).toBe('horizontal')
      expect(reading.confidence).toBeGreaterThan(75)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('reads a page scanned upside down the right way up (orientation detected)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rag-upside-down-'))
    try {
      await writeFile(
        join(dir, 'scan.pdf'),
        await scannedCopy(await scannedJapanesePdf(LINES), 1, { upsideDown: true }),
      )
      const reading = await readScannedPdfPage(join(dir, 'scan.pdf'), 1, { ...DEFAULT_OCR })
      expect(characterAccuracy(LINES.join(''), reading.text)).toBeGreaterThan(0.9)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('reads a scanned Japanese page into its page, marked as OCR, with the text nearly all right', async () => {
    const scan = await scannedJapanesePdf(LINES)
    const started = performance.now()
    const sections = await sectionsOf(scan, 'scan.pdf')
    const seconds = (performance.now() - started) / 1000
    expect(sections.map((section) => [section.sourceId, section.ocr])).toEqual([['scan.pdf:p1', true]])
    const text = sections[0]?.units.join('\n') ?? ''
    const accuracy = characterAccuracy(LINES.join(''), text)
    console.log(
      `OCR: 1 scanned Japanese page in ${seconds.toFixed(1)} s, character accuracy ${(accuracy * 100).toFixed(1)}%`,
    )
    expect(accuracy).toBeGreaterThan(0.9)
    expect(text).toContain('保証期間')
  })

  it('fails a scanned PDF with OCR off, naming OCR', async () => {
    const scan = await scannedJapanesePdf(LINES.slice(0, 1))
    await expect(sectionsOf(scan, 'scan.pdf', { ocr: { mode: 'off', languages: 'jpn' } })).rejects.toThrow(
      /no text layer.*OCR is off \(OCR=off\)/,
    )
  })

  it('says how to install what OCR needs when its language is missing', async () => {
    const scan = await scannedJapanesePdf(LINES.slice(0, 1))
    await expect(sectionsOf(scan, 'scan.pdf', { ocr: { mode: 'auto', languages: 'xyz' } })).rejects.toThrow(
      /tesseract-ocr-jpn/,
    )
  })
})

describe.skipIf(!installed)('OCR in the parse sandbox', () => {
  it('reads a scan page by page, each page read by OCR starting the deadline again', async () => {
    // The deadline's arithmetic is tested on vitest's clock (parse-deadline.test.ts); here, that the
    // child reports every page it reads, which is what restarts it. The deadline is generous, so a
    // loaded machine cannot fail this.
    const dir = await mkdtemp(join(tmpdir(), 'rag-ocr-sandbox-'))
    const sandbox = createParseSandbox({ memoryMb: 1536, timeoutMs: 120_000 })
    try {
      const path = join(dir, 'long-scan.pdf')
      await writeFile(path, await scannedJapanesePdf(LINES, { pages: 4 }))
      const report = { peakBytes: 0, pagesRead: 0 }
      const sections: ParsedSection[] = []
      for await (const batch of sandbox.parse(
        { path, filename: 'long-scan.pdf', sourceType: 'pdf', options: {}, batchSize: 50 },
        report,
      ))
        sections.push(...batch)
      expect(report.pagesRead).toBe(4)
      expect(sections.map((section) => section.sourceId)).toEqual(
        [1, 2, 3, 4].map((n) => `long-scan.pdf:p${n}`),
      )
    } finally {
      await sandbox.close()
      await rm(dir, { recursive: true, force: true })
    }
  }, 300_000)
})

/** A real multi-page TIFF: the scan's pages rendered by poppler, joined by libtiff's tiffcp. */
async function multiPageTiff(dir: string, pages: number): Promise<Buffer> {
  const pdf = join(dir, 'scan.pdf')
  await writeFile(pdf, await scannedJapanesePdf(LINES, { pages }))
  await tool('pdftoppm', ['-r', '150', '-gray', '-tiff', pdf, join(dir, 'page')])
  const singles = (await readdir(dir)).filter((name) => name.endsWith('.tif')).sort()
  await tool('tiffcp', [...singles.map((name) => join(dir, name)), join(dir, 'book.tif')])
  return readFile(join(dir, 'book.tif'))
}

/** A PNG whose header declares a picture of width × height (its pixels are not there: never decoded). */
function pngDeclaring(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr.set([8, 0, 0, 0, 0], 8)
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    return Buffer.concat([length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)])
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

describe.skipIf(!installed)('OCR of what is not an ordinary page', () => {
  it('reads a multi-page TIFF page by page, each page told as progress', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rag-tiff-'))
    try {
      const tiff = await multiPageTiff(dir, 3)
      let pagesRead = 0
      const sections: ParsedSection[] = []
      for await (const section of parseDocument(tiff, 'book.tiff', 'image', {
        onProgress: () => pagesRead++,
      }))
        sections.push(section)
      expect(sections.map((section) => section.sourceId)).toEqual([
        'book.tiff:p1',
        'book.tiff:p2',
        'book.tiff:p3',
      ])
      for (const section of sections) expect(section.units.join('')).toContain('保証期間')
      expect(pagesRead).toBe(3)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 300_000)

  it('refuses a picture too large from its header, and a page too large before rendering it, saying the limit', async () => {
    const huge = parseDocument(pngDeclaring(100_000, 100_000), 'huge.png', 'image')
    await expect(huge.next()).rejects.toThrow(
      /^the image huge\.png is 100000 × 100000 pixels; OCR reads pictures of at most 80 million pixels$/,
    )
    // A blank page 200 inches square (14,400 pt): pdftoppm would take gigabytes to render it.
    const page = rawPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 14400 14400] >>',
    ])
    await expect(sectionsOf(page, 'poster.pdf')).rejects.toThrow(
      /page 1 is 200 × 200 inches; OCR reads pages of at most 80 million pixels at 50 dpi or more/,
    )
  })
})

describe.skipIf(!installed)('a parse stopped mid-OCR', () => {
  it('leaves no copy of the document and no tesseract behind', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rag-ocr-kill-'))
    const sandbox = createParseSandbox({ memoryMb: 1536, timeoutMs: 120_000 })
    try {
      const path = join(dir, 'long-scan.pdf')
      await writeFile(path, await scannedJapanesePdf(LINES, { pages: 20 }))
      const report: SandboxReport = { peakBytes: 0, pagesRead: 0 }
      const parsing = (async () => {
        for await (const _ of sandbox.parse(
          { path, filename: 'long-scan.pdf', sourceType: 'pdf', options: {}, batchSize: 50 },
          report,
        ));
      })()
      // Mid-OCR: a page read, the next being read.
      await expect.poll(() => report.pagesRead, { timeout: 120_000, interval: 50 }).toBeGreaterThanOrEqual(1)
      const scratch = report.scratchDir ?? ''
      expect(scratch).not.toBe('')
      sandbox.close()
      await expect(parsing).rejects.toThrow(/shutting down/)
      await expect(access(scratch)).rejects.toThrow()
      // No helper of that parse runs on (tesseract's command line names the scratch folder).
      await expect
        .poll(
          async () => (await tool('pgrep', ['-f', scratch]).catch(() => ({ stdout: '' }))).stdout.trim(),
          {
            timeout: 30_000,
          },
        )
        .toBe('')
    } finally {
      sandbox.close()
      await rm(dir, { recursive: true, force: true })
    }
  }, 300_000)
})
