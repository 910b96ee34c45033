export { decodeText } from './decode-text.ts'
export { detectSourceType, SUPPORTED_EXTENSIONS } from './detect-source-type.ts'
export {
  DEFAULT_OCR,
  type OcrOptions,
  type OcrPageCache,
  type PageReading,
  pdfPageInfo,
  readScannedPdfPage,
  renderPdfPage,
} from './ocr.ts'
export { type ParseOptions, parseDocument } from './parse-document.ts'
export { DEFAULT_PARSE_LIMITS, type ParseLimits } from './parse-limits.ts'
export {
  DocumentParseError,
  type OcrPageReading,
  type ParsedSection,
  SOURCE_TYPES,
  type SourceType,
} from './parsed-section.ts'
export type { ReadPage } from './pdf/pdf-page-content.ts'
export { readPdfPages } from './pdf/read-pdf-pages.ts'
export {
  createParseSandbox,
  type ParseSandbox,
  type SandboxBudget,
  type SandboxReport,
} from './sandbox/parse-in-sandbox.ts'
export { type ChildEntry, PARSE_CHILD } from './sandbox/sandbox-child.ts'
export type { ParseRequest } from './sandbox/sandbox-protocol.ts'
export { removeLeftScratch } from './sandbox/scratch-folders.ts'
export { cleanPageText, slugify } from './text-cleanup.ts'
export { cleanExtractedText } from './text-hygiene.ts'
