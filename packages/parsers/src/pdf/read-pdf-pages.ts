import { pdfReading } from '../parse-pdf.ts'
import { DocumentParseError } from '../parsed-section.ts'
import type { ReadPage } from './pdf-page-content.ts'

/**
 * The pages of a PDF as layout reads them (text runs and drawn lines), for tools that look at the
 * layout itself (the layout benchmark, a table inspector) rather than at parsed sections. `pages`
 * picks 1-based page numbers; all pages when left out.
 */
export async function readPdfPages(data: Uint8Array, pages?: number[]): Promise<ReadPage[]> {
  const { openPdfForLayout, readPdfPage } = await pdfReading()
  const task = openPdfForLayout(data)
  try {
    const pdf = await task.promise.catch((error: unknown) => {
      throw new DocumentParseError(`not a readable PDF: ${error instanceof Error ? error.message : error}`)
    })
    const wanted = pages ?? Array.from({ length: pdf.numPages }, (_, i) => i + 1)
    const read: ReadPage[] = []
    for (const number of wanted) {
      if (number < 1 || number > pdf.numPages) continue
      const page = await pdf.getPage(number)
      read.push(await readPdfPage(page))
      page.cleanup()
    }
    return read
  } finally {
    await task.destroy()
  }
}
