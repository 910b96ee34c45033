import { defineFragment } from '../define-config.ts'
import { integer } from '../env-values.ts'

export interface ParsingSection {
  sandbox: { memoryMb: number; timeoutMs: number }
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
  },
  read: (env): ParsingSection => ({
    sandbox: { memoryMb: env.PARSE_MEMORY_MB, timeoutMs: env.PARSE_TIMEOUT_SECONDS * 1000 },
    limits: {
      maxPdfPages: env.PDF_MAX_PAGES,
      maxCsvRows: env.CSV_MAX_ROWS,
      maxCsvColumns: env.CSV_MAX_COLUMNS,
      maxUnzippedBytes: env.ZIP_MAX_UNPACKED_MB * 1024 * 1024,
      maxHtmlDepth: env.HTML_MAX_DEPTH,
    },
  }),
})
