import type { ParseOptions } from '../parse-document.ts'
import type { ParsedSection, SourceType } from '../parsed-section.ts'

/** What the parse worker asks of its sandboxed child: parse this stored file. */
export interface ParseRequest {
  path: string
  filename: string
  sourceType: SourceType
  options: ParseOptions
  /** Sections per message; the child waits for `more` after each, so it never runs far ahead. */
  batchSize: number
}

export type ParentMessage = { type: 'parse'; request: ParseRequest } | { type: 'more' }

export type ChildMessage =
  | { type: 'sections'; sections: ParsedSection[] }
  | { type: 'done' }
  /** Slow work went on (a page read by OCR): the deadline counts from here. */
  | { type: 'progress' }
  /** `document`: the file is at fault (DocumentParseError); otherwise the parser itself failed. */
  | { type: 'error'; document: boolean; message: string }
