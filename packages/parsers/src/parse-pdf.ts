import { layoutPages, newRunningMemory, type PageContent } from '@rag/layout'
import { DEFAULT_OCR, type OcrOptions, ocrPdfPages, type PageReading } from './ocr.ts'
import { DocumentParseError, type ParsedSection } from './parsed-section.ts'
import { layoutSections, newLayoutState } from './pdf/layout-sections.ts'
import { cleanPageText } from './text-cleanup.ts'

/**
 * pdf.js (and the canvas it loads), imported when a PDF is read: every process that imports
 * @rag/parsers for its types and detectors (each ingestion worker) would load them otherwise.
 */
export const pdfReading = async () => ({
  ...(await import('./pdf/open-pdf.ts')),
  ...(await import('./pdf/pdf-page-content.ts')),
})

export interface PdfOptions {
  /** Pages read and laid out together (running headers are found across them), so a 1,000-page PDF is never held at once. */
  pagesPerBatch?: number
  maxPages?: number
  ocr?: OcrOptions
  onProgress?: () => void
}

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

/**
 * A PDF read as it is laid out (pdf.js directly: each text item's place, size and weight, and the
 * lines the page draws, through @rag/layout): per page, its text in reading order under the
 * headings in force (source `name.pdf:pN`, a section where a heading starts, each paragraph with
 * its box), running headers, footers and page numbers left out, and each table row a section of its
 * own (`name.pdf:pN:t1:r4`) carrying its column headers and caption. A page without any text layer
 * is read by OCR (or handed on to an OCR job: `deferPdfPages`).
 */
export async function* parsePdf(
  data: Uint8Array,
  filename: string,
  { pagesPerBatch = 25, maxPages = Number.POSITIVE_INFINITY, ocr = DEFAULT_OCR, onProgress }: PdfOptions = {},
): AsyncGenerator<ParsedSection> {
  if (Buffer.from(data.subarray(0, 1024)).indexOf('%PDF-') < 0) {
    throw new DocumentParseError('not a PDF file (no %PDF header)')
  }
  const { openPdfForLayout, readPdfPage } = await pdfReading()
  const task = openPdfForLayout(data)
  let withText = 0
  try {
    const pdf = await task.promise.catch((error: unknown) => {
      throw openError(error)
    })
    const total = pdf.numPages
    if (total > maxPages) {
      throw new DocumentParseError(
        `the PDF has ${total} pages; at most ${maxPages} are read (PDF_MAX_PAGES): split it into smaller files`,
      )
    }
    const state = newLayoutState()
    // Running headers found in one batch of pages are known in the next.
    const running = newRunningMemory()
    for (let first = 1; first <= total; first += pagesPerBatch) {
      const last = Math.min(total, first + pagesPerBatch - 1)
      const contents: PageContent[] = []
      const scanned: number[] = []
      const leftOut: ParsedSection[] = []
      for (let number = first; number <= last; number++) {
        try {
          const page = await pdf.getPage(number)
          const { content, cut } = await readPdfPage(page)
          page.cleanup()
          if (cut.length > 0) {
            leftOut.push({
              sourceId: `${filename}:p${number}`,
              heading: null,
              units: [],
              leftOut: { page: number, reason: `read in part: ${cut.join('; ')}` },
            })
          }
          // A page without any text layer is a picture of one (a scan): OCR reads it. A page with a
          // few words (a title slide, a page number) keeps them: OCR costs seconds a page.
          if (content.runs.some((run) => run.text.trim() !== '')) contents.push(content)
          else scanned.push(number)
        } catch (error) {
          throw new DocumentParseError(
            `PDF page ${number} cannot be read (truncated or corrupt file): ${messageOf(error)}`,
            { cause: error },
          )
        }
      }
      // Pages without a text layer are read by OCR (page numbers unchanged), unless it is off; in
      // the pipeline each such page is handed on to an OCR job of its own.
      const deferred = ocr.mode === 'auto' && ocr.deferPdfPages === true
      const read =
        ocr.mode === 'auto' && !deferred && scanned.length > 0
          ? await ocrPdfPages(data, scanned, ocr, onProgress)
          : new Map<number, PageReading>()
      const layouts = new Map(layoutPages(contents, running).map((layout) => [layout.page, layout]))
      for (let number = first; number <= last; number++) {
        const sourceId = `${filename}:p${number}`
        const layout = layouts.get(number)
        if (layout) {
          const sections = layoutSections([layout], filename, state)
          if (sections.length > 0) withText += 1
          yield* sections
          continue
        }
        if (deferred && scanned.includes(number)) {
          withText += 1
          yield { sourceId, heading: null, units: [], ocrPage: number }
          continue
        }
        const reading = read.get(number)
        if (!reading) continue
        // A page read with too little confidence is noise, not text: left out, saying so.
        const floor = ocr.minConfidence ?? 0
        if (reading.confidence < floor) {
          yield {
            sourceId,
            heading: null,
            units: [],
            leftOut: {
              page: number,
              reason: `OCR could not read page ${number} reliably (confidence ${Math.round(reading.confidence)}%, below OCR_MIN_CONFIDENCE ${floor}%)`,
            },
          }
          continue
        }
        const units = reading.paragraphs.map((paragraph) => cleanPageText(paragraph.text)).filter(Boolean)
        if (units.length === 0) continue
        withText += 1
        yield {
          sourceId,
          heading: null,
          units,
          regions: reading.paragraphs.map((paragraph) => [{ page: number, ...paragraph.box }]),
          ocr: true,
          ocrReading: { page: number, confidence: reading.confidence, direction: reading.direction },
        }
      }
      yield* leftOut
    }
  } finally {
    await task.destroy()
  }
  if (withText === 0) {
    throw new DocumentParseError(
      ocr.mode === 'off'
        ? 'the PDF has no text layer (scanned pages?) and OCR is off (OCR=off): set OCR=auto, with tesseract installed, to read it'
        : 'the PDF has no text: its pages hold no text layer and OCR found no text in them',
    )
  }
}
