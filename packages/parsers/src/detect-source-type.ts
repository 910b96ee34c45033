import { extname } from 'node:path'
import type { SourceType } from './parsed-section.ts'

const BY_EXTENSION: Record<string, SourceType> = {
  '.pdf': 'pdf',
  '.csv': 'csv',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.html': 'html',
  '.htm': 'html',
  '.txt': 'text',
  '.text': 'text',
  '.docx': 'docx',
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
  '.xlsx': 'xlsx',
  '.xlsm': 'xlsx',
  '.pptx': 'pptx',
  '.png': 'image',
  '.jpg': 'image',
  '.jpeg': 'image',
  '.tif': 'image',
  '.tiff': 'image',
}

export const SUPPORTED_EXTENSIONS = Object.keys(BY_EXTENSION)

/** The type a file name says it is, or null when we cannot read that kind of file. */
export function detectSourceType(filename: string): SourceType | null {
  return BY_EXTENSION[extname(filename).toLowerCase()] ?? null
}
