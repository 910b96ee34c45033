/**
 * Bounds on what one file may make the parser do, so a hostile or absurd file fails with a reason
 * instead of taking the parse worker's time or memory. Memory and wall-clock time are bounded
 * separately by the sandbox the parse runs in.
 */
export interface ParseLimits {
  /** Pages read from one PDF. */
  maxPdfPages: number
  /** Data rows in one CSV. */
  maxCsvRows: number
  /** Columns of one CSV. */
  maxCsvColumns: number
  /** Decompressed bytes of a zip-based file (DOCX), checked before anything is inflated. */
  maxUnzippedBytes: number
  /** Element nesting of HTML (and DOCX converted to HTML). */
  maxHtmlDepth: number
}

export const DEFAULT_PARSE_LIMITS: ParseLimits = {
  maxPdfPages: 2000,
  maxCsvRows: 1_000_000,
  maxCsvColumns: 1000,
  maxUnzippedBytes: 256 * 1024 * 1024,
  maxHtmlDepth: 512,
}
