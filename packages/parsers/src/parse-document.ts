import { parseCsv } from './parse-csv.ts'
import { parseDocx } from './parse-docx.ts'
import { parseHtml } from './parse-html.ts'
import { parseJsonl } from './parse-jsonl.ts'
import { parseMarkdown } from './parse-markdown.ts'
import { parsePdf } from './parse-pdf.ts'
import { parsePlainText } from './parse-plain-text.ts'
import { DocumentParseError, type ParsedSection, type SourceType } from './parsed-section.ts'

export interface ParseOptions {
  /** Largest plain-text section. */
  maxSectionChars?: number
  pdfPagesPerBatch?: number
}

/**
 * Sections in reading order. A generator, so the caller can store them in batches as they come
 * (PDF pages and CSV rows are produced incrementally). Throws DocumentParseError for bad files.
 */
export async function* parseDocument(
  data: Uint8Array,
  filename: string,
  type: SourceType,
  options: ParseOptions = {},
): AsyncGenerator<ParsedSection> {
  if (data.length === 0) throw new DocumentParseError('the file is empty')
  switch (type) {
    case 'pdf':
      yield* parsePdf(data, filename, { pagesPerBatch: options.pdfPagesPerBatch })
      return
    case 'csv':
      yield* parseCsv(data, filename)
      return
    case 'markdown':
      yield* parseMarkdown(data, filename)
      return
    case 'html':
      yield* parseHtml(data, filename)
      return
    case 'docx':
      yield* await parseDocx(data, filename)
      return
    case 'text':
      yield* parsePlainText(data, filename, { maxChars: options.maxSectionChars })
      return
    case 'jsonl':
      yield* parseJsonl(data)
      return
  }
}
