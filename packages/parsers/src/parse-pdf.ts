import { PDFParse } from 'pdf-parse'
import { DEFAULT_OCR, type OcrOptions, ocrPdfPages } from './ocr.ts'
import { DocumentParseError, type ParsedSection } from './parsed-section.ts'
import { PDF_LIBRARY_DATA } from './pdf-library-data.ts'
import { cleanPageText } from './text-cleanup.ts'

export interface PdfOptions {
  /** Pages extracted per call, so a 1,000-page PDF is never held as text all at once. */
  pagesPerBatch?: number
  maxPages?: number
  ocr?: OcrOptions
  onProgress?: () => void
}

// Images are never needed for text; decoding a huge one (a JBIG2 or JPEG bomb) is refused.
const MAX_IMAGE_PIXELS = 16_000_000

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

function openError(error: unknown): DocumentParseError {
  if (error instanceof Error && error.name === 'PasswordException') {
    return new DocumentParseError(
      'the PDF is encrypted with a password: remove the password (e.g. print it to a new PDF) and upload it again',
      { cause: error },
    )
  }
  return new DocumentParseError(`not a readable PDF: ${messageOf(error)}`, { cause: error })
}

/** One section per page, source `name.pdf:pN` (1-based); blank pages are skipped. */
export async function* parsePdf(
  data: Uint8Array,
  filename: string,
  { pagesPerBatch = 25, maxPages = Number.POSITIVE_INFINITY, ocr = DEFAULT_OCR, onProgress }: PdfOptions = {},
) {
  if (Buffer.from(data.subarray(0, 1024)).indexOf('%PDF-') < 0) {
    throw new DocumentParseError('not a PDF file (no %PDF header)')
  }
  // An encrypted PDF with an empty user password (print/copy restrictions only) opens as is.
  const parser = new PDFParse({
    data: new Uint8Array(data),
    ...PDF_LIBRARY_DATA,
    maxImageSize: MAX_IMAGE_PIXELS,
    verbosity: 0,
  })
  let withText = 0
  try {
    let total: number
    try {
      total = (await parser.getInfo()).total
    } catch (error) {
      throw openError(error)
    }
    if (total > maxPages) {
      throw new DocumentParseError(
        `the PDF has ${total} pages; at most ${maxPages} are read (PDF_MAX_PAGES): split it into smaller files`,
      )
    }
    for (let first = 1; first <= total; first += pagesPerBatch) {
      const last = Math.min(total, first + pagesPerBatch - 1)
      let pages: { num: number; text: string }[]
      try {
        pages = (await parser.getText({ first, last, pageJoiner: '' })).pages
      } catch (error) {
        throw new DocumentParseError(
          `PDF pages ${first}-${last} cannot be read (truncated or corrupt file): ${messageOf(error)}`,
          { cause: error },
        )
      }
      const sections: ParsedSection[] = []
      // A page without any text layer is a picture of one (a scan): OCR reads it. A page with a few
      // words (a title slide, a page number) keeps them: OCR costs seconds a page.
      const scanned = pages.filter((page) => cleanPageText(page.text) === '')
      // Pages without a text layer are read by OCR (page numbers unchanged), unless it is off;
      // in the pipeline each such page is handed on to an OCR job of its own.
      const deferred = ocr.mode === 'auto' && ocr.deferPdfPages === true
      const read =
        ocr.mode === 'auto' && !deferred
          ? await ocrPdfPages(
              data,
              scanned.map((page) => page.num),
              ocr,
              onProgress,
            )
          : new Map<number, string>()
      for (const page of pages) {
        const sourceId = `${filename}:p${page.num}`
        if (deferred && scanned.includes(page)) {
          withText += 1
          sections.push({ sourceId, heading: null, units: [], ocrPage: page.num })
          continue
        }
        const ocrText = read.get(page.num)
        const text = ocrText ?? cleanPageText(page.text)
        if (!text) continue
        withText += 1
        sections.push({
          sourceId,
          heading: null,
          units: [text],
          ...(ocrText !== undefined ? { ocr: true } : {}),
        })
      }
      yield* sections
    }
  } finally {
    await parser.destroy()
  }
  if (withText === 0) {
    throw new DocumentParseError(
      ocr.mode === 'off'
        ? 'the PDF has no text layer (scanned pages?) and OCR is off (OCR=off): set OCR=auto, with tesseract installed, to read it'
        : 'the PDF has no text: its pages hold no text layer and OCR found no text in them',
    )
  }
}
