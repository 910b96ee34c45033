import type { OcrDirection } from '@rag/api-contract/enums'

/** How OCR read one page: its mean confidence (0–100, by characters) and the model's direction. */
export interface OcrPageReading {
  page: number
  confidence: number
  /** horizontal, or vertical: a 縦書き page read again with the vertical model (jpn_vert). */
  direction: OcrDirection
}

/**
 * A parent section of a document: what is cited (its source id) and what the LLM sees. Its units
 * are the child pieces search chunks are cut from (a page's text, a row, an h3 subsection, a code
 * block kept whole).
 */
export interface ParsedSection {
  /** e.g. guide.pdf:p3, faq.csv:r12, setup.md#install, or a JSONL record id. */
  sourceId: string
  heading: string | null
  units: string[]
  /** The text was read by OCR from a picture of it (a scanned page, an image): it may hold misreadings. */
  ocr?: boolean
  /** How OCR read the page this section is (kept with the document: a doubtful page can be found). */
  ocrReading?: OcrPageReading
  /**
   * A PDF page without a text layer, left for an OCR job of its own to read (its units are empty):
   * the parse hands such pages on instead of holding its slot for minutes of OCR.
   */
  ocrPage?: number
  /** Where each unit stands on the page (parallel to `units`): the boxes a viewer highlights. */
  regions?: Region[][]
  /**
   * A page read only in part (or not at all), and why: no text of its own (its units are empty),
   * recorded with the document's missing pages so nobody takes the index for the whole page.
   */
  leftOut?: { page: number; reason: string }
  /** Where it stands in a text file (Markdown, plain text): its first and last line, 1-based. */
  lines?: LineSpan
  /** A table row: its table's id on the page (t1), its row number, and the column names. */
  table?: { id: string; row: number; columns: string[] | null }
}

/** Lines of a text file, 1-based and inclusive. */
export interface LineSpan {
  from: number
  to: number
}

/** A box on a page of the document, in PDF points from the page's top-left corner. */
export interface Region {
  page: number
  x: number
  y: number
  width: number
  height: number
}

/** The file cannot become text and retrying will not change that (corrupt, empty, unsupported). */
export class DocumentParseError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'DocumentParseError'
  }
}

export { SOURCE_TYPES, type SourceType } from '@rag/api-contract/enums'
