import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { parseDocument } from '@rag/parsers'
import { scannedCopy } from '@rag/parsers/testing'
import { distance } from 'fastest-levenshtein'
import { PDFParse } from 'pdf-parse'
import { chromium } from 'playwright-core'
import { japaneseTexts } from './japanese-texts.ts'
import { loadAverage } from './machine-load.ts'

const run = promisify(execFile)

/** Text as compared: NFKC, without spaces and line breaks (a column's end is not a character). */
const comparable = (text: string) => text.normalize('NFKC').replace(/\s+/g, '')

/** Character error rate: edit distance over the reference's length. */
const errorRate = (reference: string, read: string) =>
  distance(comparable(reference), comparable(read)) / Math.max(1, comparable(reference).length)

/** Pages of Japanese set vertically (writing-mode: vertical-rl), one passage a page, printed by Chromium. */
async function verticalPdf(passages: string[], chromiumPath: string): Promise<Buffer> {
  const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;')
  const html = `<!doctype html><html lang="ja"><head><meta charset="utf-8"><style>
body{margin:0;font-family:'IPAMincho',serif;font-size:13pt;line-height:1.7}
section{writing-mode:vertical-rl;height:250mm;width:180mm;break-after:page;overflow:hidden}
</style></head><body>${passages.map((text) => `<section><p>${escapeHtml(text)}</p></section>`).join('')}</body></html>`
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox'],
  })
  try {
    const page = await browser.newPage()
    await page.setContent(html)
    return await page.pdf({
      format: 'A4',
      margin: { top: '15mm', bottom: '15mm', left: '15mm', right: '15mm' },
    })
  } finally {
    await browser.close()
  }
}

/** The text each page's sections hold, by page number. */
async function textByPage(data: Uint8Array, ocr: boolean): Promise<Map<number, string>> {
  const pages = new Map<number, string>()
  for await (const section of parseDocument(data, 'vertical.pdf', 'pdf', {
    ocr: ocr ? { mode: 'auto', languages: 'jpn+eng', minConfidence: 0 } : { mode: 'off', languages: 'jpn' },
  })) {
    const page = Number(/:p(\d+)/.exec(section.sourceId)?.[1] ?? 1)
    pages.set(page, (pages.get(page) ?? '') + section.units.join(''))
  }
  return pages
}

/** The old readings, as the baselines: pdf-parse's text of a page; tesseract's `jpn` model alone. */
async function pdfParsePages(data: Uint8Array): Promise<string[]> {
  const parser = new PDFParse({ data: new Uint8Array(data), verbosity: 0 })
  try {
    return (await parser.getText({ pageJoiner: '' })).pages.map((page) => page.text)
  } finally {
    await parser.destroy()
  }
}

async function jpnAlone(scan: Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rag-bench-vertical-'))
  try {
    await writeFile(join(dir, 'scan.pdf'), scan)
    await run('pdftoppm', [
      '-r',
      '200',
      '-gray',
      '-png',
      '-singlefile',
      join(dir, 'scan.pdf'),
      join(dir, 'page'),
    ])
    return (await run('tesseract', [join(dir, 'page.png'), 'stdout', '-l', 'jpn', '--psm', '3'])).stdout
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length)
const percent = (value: number) => `${(value * 100).toFixed(2)} %`

/**
 * `pnpm bench layout vertical [PAGES]` (default 8): real Japanese (JaQuAD passages under
 * SHARED_DIR) set vertically by Chromium (`writing-mode: vertical-rl`), one passage a page, read
 * with its text layer and as a scan (each page rasterised at 200 dpi, no text layer, read by OCR);
 * the character error rate of each against the passage, with the old readings in the same run:
 * pdf-parse's page text, and tesseract's horizontal `jpn` model alone on the scan.
 */
export async function benchLayoutVertical(sharedDir: string, chromiumPath: string, pagesWanted: number) {
  const texts = await japaneseTexts(sharedDir, 500)
  const passages = texts.passages.slice(0, pagesWanted)
  const pdf = await verticalPdf(passages, chromiumPath)
  const layer = await textByPage(new Uint8Array(pdf), false)
  const old = await pdfParsePages(new Uint8Array(pdf))
  const rates = { layer: [] as number[], pdfParse: [] as number[], scan: [] as number[], jpn: [] as number[] }
  for (const [i, passage] of passages.entries()) {
    rates.layer.push(errorRate(passage, layer.get(i + 1) ?? ''))
    rates.pdfParse.push(errorRate(passage, old[i] ?? ''))
    const scan = await scannedCopy(pdf, i + 1)
    rates.scan.push(errorRate(passage, (await textByPage(new Uint8Array(scan), true)).get(1) ?? ''))
    rates.jpn.push(errorRate(passage, await jpnAlone(scan)))
  }
  process.stdout.write(
    [
      `vertical Japanese: ${passages.length} pages of ${texts.source}, 500 characters each; load ${loadAverage()}`,
      `text layer   layout ${percent(mean(rates.layer))} (worst ${percent(Math.max(...rates.layer))})   pdf-parse ${percent(mean(rates.pdfParse))}`,
      `scanned      OCR ${percent(mean(rates.scan))} (worst ${percent(Math.max(...rates.scan))})   jpn model alone ${percent(mean(rates.jpn))}`,
      '',
    ].join('\n'),
  )
}
