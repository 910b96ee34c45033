import { defineFragment } from '../define-config.ts'
import { integer, oneOf, text } from '../env-values.ts'

export interface ParsingSection {
  sandbox: { memoryMb: number; timeoutMs: number }
  /** OCR of PDF pages without a text layer and of images. */
  ocr: {
    mode: 'auto' | 'off'
    languages: string
    /** Pages without a text layer one document may have read by OCR; past it they are recorded as missing. */
    maxPages: number
    /** OCR jobs (pages) one OCR worker process reads at once. */
    concurrency: number
    /** A page OCR read with a lower mean confidence (0–100) is listed as missing, not indexed as noise. */
    minConfidence: number
  }
  limits: {
    maxPdfPages: number
    maxCsvRows: number
    maxCsvColumns: number
    maxUnzippedBytes: number
    maxHtmlDepth: number
  }
}

/** What one file may make the parser do: past any of these the document fails with the reason. */
export const parsing = defineFragment({
  shape: {
    // Resident memory of the child process one file is parsed in (a PDF with CJK fonts needs ~500).
    PARSE_MEMORY_MB: integer(1536, { min: 128, max: 65536 }),
    // Wall-clock time parsing one file may take.
    PARSE_TIMEOUT_SECONDS: integer(300, { min: 1, max: 86400 }),
    PDF_MAX_PAGES: integer(2000, { min: 1, max: 1_000_000 }),
    CSV_MAX_ROWS: integer(1_000_000, { min: 1, max: 100_000_000 }),
    CSV_MAX_COLUMNS: integer(1000, { min: 1, max: 100_000 }),
    // Decompressed size of a zip-based file (DOCX), read from its directory before inflating.
    ZIP_MAX_UNPACKED_MB: integer(256, { min: 1, max: 65536 }),
    HTML_MAX_DEPTH: integer(512, { min: 16, max: 100_000 }),
    // auto: PDF pages without a text layer and image files (PNG, JPEG, TIFF) are read by OCR
    // (tesseract with poppler's pdftoppm, tiffsplit for multi-page TIFFs: apt-get install
    // tesseract-ocr tesseract-ocr-jpn poppler-utils libtiff-tools); off: such pages are skipped and
    // image files fail, saying so.
    OCR: oneOf(['auto', 'off'], 'auto'),
    // Tesseract's languages, joined by +: jpn+eng reads Japanese with English in it.
    OCR_LANGUAGES: text('jpn+eng'),
    // Pages without a text layer read by OCR in one document (a few seconds each on one core):
    // past it, the rest are listed as missing pages with this limit as the reason.
    OCR_MAX_PAGES: integer(1000, { min: 1, max: 1_000_000 }),
    // Pages the OCR worker reads at once, one core each: 1 leaves the other cores of a small
    // machine to questions and ordinary documents while a scanned book is read.
    OCR_CONCURRENCY: integer(1, { min: 1, max: 64 }),
    // A scanned page read with a lower mean word confidence (0-100) is not indexed: it is listed
    // among the document's missing pages with its confidence (a blurred scan, handwriting).
    OCR_MIN_CONFIDENCE: integer(50, { min: 0, max: 100 }),
  },
  check: (env, report) => {
    if (!/^[a-z_]+(\+[a-z_]+)*$/i.test(env.OCR_LANGUAGES))
      report(
        'OCR_LANGUAGES',
        `must be tesseract language codes joined by +, like jpn+eng, got ${env.OCR_LANGUAGES}`,
      )
  },
  read: (env): ParsingSection => ({
    sandbox: { memoryMb: env.PARSE_MEMORY_MB, timeoutMs: env.PARSE_TIMEOUT_SECONDS * 1000 },
    ocr: {
      mode: env.OCR,
      languages: env.OCR_LANGUAGES,
      maxPages: env.OCR_MAX_PAGES,
      concurrency: env.OCR_CONCURRENCY,
      minConfidence: env.OCR_MIN_CONFIDENCE,
    },
    limits: {
      maxPdfPages: env.PDF_MAX_PAGES,
      maxCsvRows: env.CSV_MAX_ROWS,
      maxCsvColumns: env.CSV_MAX_COLUMNS,
      maxUnzippedBytes: env.ZIP_MAX_UNPACKED_MB * 1024 * 1024,
      maxHtmlDepth: env.HTML_MAX_DEPTH,
    },
  }),
})
