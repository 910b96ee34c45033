import type { SourceType } from './enums.ts'

/** The file name endings the platform reads, and what each is read as. */
export const SOURCE_TYPE_BY_EXTENSION: Readonly<Record<string, SourceType>> = {
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

export const SUPPORTED_EXTENSIONS = Object.keys(SOURCE_TYPE_BY_EXTENSION)

/** The type a file name (or path, with / or \ separators) says it is, or null when it cannot be read. */
export function sourceTypeOf(filename: string): SourceType | null {
  const name = filename.slice(Math.max(filename.lastIndexOf('/'), filename.lastIndexOf('\\')) + 1)
  const dot = name.lastIndexOf('.')
  if (dot <= 0) return null
  return SOURCE_TYPE_BY_EXTENSION[name.slice(dot).toLowerCase()] ?? null
}
