import { PDFParse } from 'pdf-parse'
import { DocumentParseError, type ParsedSection } from './parsed-section.ts'
import { cleanPageText } from './text-cleanup.ts'

export interface PdfOptions {
  /** Pages extracted per call, so a 1,000-page PDF is never held as text all at once. */
  pagesPerBatch?: number
}

/** One section per page, source `name.pdf:pN` (1-based); blank pages are skipped. */
export async function* parsePdf(data: Uint8Array, filename: string, { pagesPerBatch = 25 }: PdfOptions = {}) {
  if (Buffer.from(data.subarray(0, 1024)).indexOf('%PDF-') < 0) {
    throw new DocumentParseError('not a PDF file (no %PDF header)')
  }
  const parser = new PDFParse({ data: new Uint8Array(data) })
  let withText = 0
  try {
    let total: number
    try {
      total = (await parser.getInfo()).total
    } catch (error) {
      throw new DocumentParseError(
        `not a readable PDF: ${error instanceof Error ? error.message : String(error)}`,
        {
          cause: error,
        },
      )
    }
    for (let first = 1; first <= total; first += pagesPerBatch) {
      const last = Math.min(total, first + pagesPerBatch - 1)
      let pages: { num: number; text: string }[]
      try {
        pages = (await parser.getText({ first, last, pageJoiner: '' })).pages
      } catch (error) {
        throw new DocumentParseError(
          `PDF pages ${first}-${last} cannot be read (truncated or corrupt file): ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        )
      }
      const sections: ParsedSection[] = []
      for (const page of pages) {
        const text = cleanPageText(page.text)
        if (!text) continue
        withText += 1
        sections.push({ sourceId: `${filename}:p${page.num}`, heading: null, units: [text] })
      }
      yield* sections
    }
  } finally {
    await parser.destroy()
  }
  if (withText === 0) {
    throw new DocumentParseError('the PDF has no text layer (scanned pages?): run OCR on it first')
  }
}
