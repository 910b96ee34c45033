import { execFile } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import ExcelJS from 'exceljs'
import PDFDocument from 'pdfkit'
import { JAPANESE_FONT } from './japanese-font.ts'

export { JAPANESE_FONT }

const run = promisify(execFile)

/**
 * A workbook of two sheets. 売上: a two-row header (店舗 and 備考 merged down, 売上 merged over
 * 上期 and 下期), a 合計 column of formulas with their cached results, a 地域 merged down over two
 * rows. 在庫: a plain header.
 */
export async function workbookWithMergedHeaders(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  const sales = workbook.addWorksheet('売上')
  sales.getCell('A1').value = '店舗'
  sales.getCell('B1').value = '売上'
  sales.getCell('D1').value = '合計'
  sales.getCell('E1').value = '地域'
  sales.getCell('B2').value = '上期'
  sales.getCell('C2').value = '下期'
  sales.mergeCells('A1:A2')
  sales.mergeCells('B1:C1')
  sales.mergeCells('D1:D2')
  sales.mergeCells('E1:E2')
  const rows: [string, number, number, string][] = [
    ['渋谷店', 120, 180, '東京'],
    ['新宿店', 90, 110, ''],
    ['梅田店', 70, 95, '大阪'],
  ]
  rows.forEach(([store, first, second, region], i) => {
    const r = i + 3
    sales.getCell(`A${r}`).value = store
    sales.getCell(`B${r}`).value = first
    sales.getCell(`C${r}`).value = second
    sales.getCell(`D${r}`).value = { formula: `B${r}+C${r}`, result: first + second }
    if (region) sales.getCell(`E${r}`).value = region
  })
  sales.mergeCells('E3:E4')
  const stock = workbook.addWorksheet('在庫')
  stock.addRow(['品番', '品名', '在庫数'])
  stock.addRow(['L-200', 'ルミナ デスクライト', 42])
  stock.addRow(['L-300', 'ルミナ フロアライト', 0])
  return Buffer.from(await workbook.xlsx.writeBuffer())
}

/** The lines typeset in Japanese and rendered as a 200 dpi grey PNG: a photo or scan of a page. */
export async function japanesePageImage(lines: string[], font = JAPANESE_FONT): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'rag-scan-'))
  try {
    await writeFile(join(dir, 'typeset.pdf'), await typesetJapanese(lines, font))
    await run('pdftoppm', [
      '-r',
      '200',
      '-gray',
      '-png',
      '-singlefile',
      join(dir, 'typeset.pdf'),
      join(dir, 'page'),
    ])
    return await readFile(join(dir, 'page.png'))
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

async function typesetJapanese(lines: string[], font: string): Promise<Buffer> {
  const typeset = new PDFDocument({ size: 'A4', margin: 60 })
  const chunks: Buffer[] = []
  typeset.on('data', (chunk: Buffer) => chunks.push(chunk))
  const done = new Promise((resolve) => typeset.on('end', resolve))
  typeset.registerFont('jp', font)
  for (const line of lines) typeset.font('jp').fontSize(14).text(line, { lineGap: 6 }).moveDown(0.6)
  typeset.end()
  await done
  return Buffer.concat(chunks)
}

/**
 * A scanned page: the lines typeset in Japanese, rendered to a 200 dpi grey image by pdftoppm,
 * and that image alone wrapped in a PDF (no text layer), as a scanner makes one.
 */
export async function scannedJapanesePdf(
  lines: string[],
  {
    font = JAPANESE_FONT,
    pages = 1,
    distinct = false,
  }: {
    font?: string
    pages?: number
    /**
     * Every page its own picture (its number printed under the lines), as a real book's pages
     * are: OCR's page cache reads a picture seen before once. Rendered together by one pdftoppm.
     */
    distinct?: boolean
  } = {},
): Promise<Buffer> {
  const images = distinct
    ? await japanesePageImages(
        Array.from({ length: pages }, (_, page) => [...lines, `— ${page + 1} ページ —`]),
        font,
      )
    : Array.from({ length: pages }, () => null)
  const same = distinct ? null : await japanesePageImage(lines, font)
  const scan = new PDFDocument({ size: 'A4', margin: 0, autoFirstPage: false })
  const out: Buffer[] = []
  scan.on('data', (chunk: Buffer) => out.push(chunk))
  const done = new Promise((resolve) => scan.on('end', resolve))
  for (const image of images)
    scan.addPage().image(image ?? (same as Buffer), 0, 0, { width: 595.28, height: 841.89 })
  scan.end()
  await done
  return Buffer.concat(out)
}

/**
 * A scan of one page of a PDF: the page rendered at 200 dpi in grey by pdftoppm, that picture alone
 * wrapped in a PDF (no text layer), as a scanner makes one.
 */
export async function scannedCopy(pdf: Buffer, page = 1, { upsideDown = false } = {}): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'rag-scan-'))
  try {
    await writeFile(join(dir, 'source.pdf'), pdf)
    await run('pdftoppm', [
      '-r',
      '200',
      '-gray',
      '-png',
      '-singlefile',
      '-f',
      String(page),
      '-l',
      String(page),
      join(dir, 'source.pdf'),
      join(dir, 'page'),
    ])
    const image = await readFile(join(dir, 'page.png'))
    const scan = new PDFDocument({ size: 'A4', margin: 0 })
    const out: Buffer[] = []
    scan.on('data', (chunk: Buffer) => out.push(chunk))
    const done = new Promise((resolve) => scan.on('end', resolve))
    // A sheet fed into the scanner the wrong way round.
    if (upsideDown) scan.rotate(180, { origin: [595.28 / 2, 841.89 / 2] })
    scan.image(image, 0, 0, { width: 595.28, height: 841.89 })
    scan.end()
    await done
    return Buffer.concat(out)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** Pages of lines typeset in one PDF (a page each) and rendered by one pdftoppm: 200 dpi grey PNGs. */
async function japanesePageImages(pages: string[][], font: string): Promise<Buffer[]> {
  const dir = await mkdtemp(join(tmpdir(), 'rag-scan-'))
  try {
    const typeset = new PDFDocument({ size: 'A4', margin: 60, autoFirstPage: false })
    const chunks: Buffer[] = []
    typeset.on('data', (chunk: Buffer) => chunks.push(chunk))
    const done = new Promise((resolve) => typeset.on('end', resolve))
    typeset.registerFont('jp', font)
    for (const lines of pages) {
      typeset.addPage()
      for (const line of lines) typeset.font('jp').fontSize(14).text(line, { lineGap: 6 }).moveDown(0.6)
    }
    typeset.end()
    await done
    await writeFile(join(dir, 'typeset.pdf'), Buffer.concat(chunks))
    await run('pdftoppm', ['-r', '200', '-gray', '-png', join(dir, 'typeset.pdf'), join(dir, 'page')])
    const names = (await readdir(dir)).filter((name) => name.endsWith('.png')).sort()
    return Promise.all(names.map((name) => readFile(join(dir, name))))
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
