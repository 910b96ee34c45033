import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { processEnvironment } from '@rag/config'
import { requireTestAsset, testConfig } from '@rag/config/testing'
import { describe, expect, it } from 'vitest'
import { parseDocument } from './parse-document.ts'
import type { ParsedSection } from './parsed-section.ts'
import { createParseSandbox } from './sandbox/parse-in-sandbox.ts'
import { scannedJapanesePdf } from './testing/office-samples.ts'

// A scanned Japanese page (typeset, rendered to 200 dpi grey, wrapped in a PDF without a text
// layer) read through OCR: tesseract and poppler from Debian's packages (.ci/run installs them).
const LINES = [
  'ルミナ L-200 取扱説明書',
  '本製品の保証期間はお買い上げ日から2年間です。',
  '満充電までの時間は約3時間です。バッテリーは満充電で最大8時間点灯します。',
  '浴室など湿気の多い場所では使用しないでください。',
]
const installed = await promisify(execFile)('tesseract', ['--list-langs'])
  .then(({ stdout }) => stdout.includes('jpn'))
  .catch(() => false)
requireTestAsset(
  testConfig.parse(processEnvironment()).test,
  'tesseract with Japanese',
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
  }, 120_000)

  it('fails a scanned PDF with OCR off, naming OCR', async () => {
    const scan = await scannedJapanesePdf(LINES.slice(0, 1))
    await expect(sectionsOf(scan, 'scan.pdf', { ocr: { mode: 'off', languages: 'jpn' } })).rejects.toThrow(
      /no text layer.*OCR is off \(OCR=off\)/,
    )
  }, 60_000)

  it('says how to install what OCR needs when its language is missing', async () => {
    const scan = await scannedJapanesePdf(LINES.slice(0, 1))
    await expect(sectionsOf(scan, 'scan.pdf', { ocr: { mode: 'auto', languages: 'xyz' } })).rejects.toThrow(
      /tesseract-ocr-jpn/,
    )
  }, 60_000)
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
