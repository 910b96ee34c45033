import type { OcrOptions } from './ocr.ts'
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from './parse-limits.ts'
import { DocumentParseError, type ParsedSection, type SourceType } from './parsed-section.ts'
import { cleanSection } from './text-hygiene.ts'

export interface ParseOptions {
  /** OCR of pages without a text layer and of images (default: on, Japanese and English). */
  ocr?: OcrOptions
  /** Told after each slow step (a page read by OCR), so a deadline can count from there. */
  onProgress?: () => void
  /** Largest plain-text section. */
  maxSectionChars?: number
  pdfPagesPerBatch?: number
  limits?: Partial<ParseLimits>
}

// Each format's parser is loaded when a file of that format comes: the sandboxed parse of a text
// file does not pay for the PDF library (about 160 MB resident).
async function sectionsOf(
  data: Uint8Array,
  filename: string,
  type: SourceType,
  options: ParseOptions,
  limits: ParseLimits,
): Promise<AsyncIterable<ParsedSection> | Iterable<ParsedSection>> {
  switch (type) {
    case 'pdf': {
      const { parsePdf } = await import('./parse-pdf.ts')
      return parsePdf(data, filename, {
        pagesPerBatch: options.pdfPagesPerBatch,
        maxPages: limits.maxPdfPages,
        ocr: options.ocr,
        onProgress: options.onProgress,
      })
    }
    case 'csv':
      return (await import('./parse-csv.ts')).parseCsv(data, filename, limits)
    case 'markdown':
      return (await import('./parse-markdown.ts')).parseMarkdown(data, filename)
    case 'html':
      return (await import('./parse-html.ts')).parseHtml(data, filename, limits)
    case 'docx':
      return (await import('./parse-docx.ts')).parseDocx(data, filename, limits)
    case 'text':
      return (await import('./parse-plain-text.ts')).parsePlainText(data, filename, {
        maxChars: options.maxSectionChars,
      })
    case 'jsonl':
      return (await import('./parse-jsonl.ts')).parseJsonl(data)
    case 'xlsx':
      return (await import('./parse-xlsx.ts')).parseXlsx(data, filename, limits)
    case 'pptx':
      return (await import('./parse-pptx.ts')).parsePptx(data, filename, limits)
    case 'image':
      return (await import('./parse-image.ts')).parseImage(data, filename, options.ocr, options.onProgress)
  }
}

/**
 * Sections in reading order. A generator, so the caller can store them in batches as they come
 * (PDF pages and CSV rows are produced incrementally). Every piece of text is cleaned of
 * characters that cannot be stored (NUL, other controls) on the way out. Throws
 * DocumentParseError for bad files and for files past the limits.
 */
export async function* parseDocument(
  data: Uint8Array,
  filename: string,
  type: SourceType,
  options: ParseOptions = {},
): AsyncGenerator<ParsedSection> {
  if (data.length === 0) throw new DocumentParseError('the file is empty')
  const limits = { ...DEFAULT_PARSE_LIMITS, ...options.limits }
  let yielded = 0
  for await (const section of await sectionsOf(data, filename, type, options, limits)) {
    const clean = cleanSection(section)
    if (!clean) continue
    yielded += 1
    yield clean
  }
  if (yielded === 0) throw new DocumentParseError('the document has no text')
}
