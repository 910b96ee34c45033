import { execFile } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import PDFDocument from 'pdfkit'

const run = promisify(execFile)

async function pdfOf(build: (document: PDFKit.PDFDocument) => void, options: PDFKit.PDFDocumentOptions) {
  const document = new PDFDocument(options)
  const out: Buffer[] = []
  document.on('data', (chunk: Buffer) => out.push(chunk))
  const done = new Promise((resolve) => document.on('end', resolve))
  build(document)
  document.end()
  await done
  return Buffer.concat(out)
}

/** The words printed on page `page` of `scannedBook`: what OCR should read back there. */
export const bookPageWords = (page: number) => `Chapter ${page} tells of lighthouse number ${page * 7}.`

/**
 * A scanned book: `pages` small pages, each a grey picture of one printed line (`bookPageWords`)
 * and no text layer, as a scanner makes them. The pages in `oversized` hold the same picture on a
 * 200 × 200 inch page, which OCR refuses to render (its pixel budget).
 */
export async function scannedBook(pages: number, { oversized = [] as number[] } = {}): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'rag-book-'))
  try {
    const typeset = await pdfOf(
      (document) => {
        for (let page = 1; page <= pages; page++)
          document.addPage().font('Helvetica').fontSize(14).text(bookPageWords(page), 20, 30)
      },
      { size: [420, 90], margin: 0, autoFirstPage: false },
    )
    await writeFile(join(dir, 'typeset.pdf'), typeset)
    await run('pdftoppm', ['-r', '150', '-gray', '-png', join(dir, 'typeset.pdf'), join(dir, 'page')])
    // pdftoppm numbers its pictures page-01.png … in page order, zero-padded to the same width.
    const images = (await readdir(dir)).filter((name) => name.endsWith('.png')).sort()
    const pictures = await Promise.all(images.map((name) => readFile(join(dir, name))))
    return await pdfOf(
      (document) => {
        for (const [index, picture] of pictures.entries()) {
          const size: [number, number] = oversized.includes(index + 1) ? [14_400, 14_400] : [420, 90]
          document.addPage({ size }).image(picture, 0, 0, { width: 420, height: 90 })
        }
      },
      { margin: 0, autoFirstPage: false },
    )
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
