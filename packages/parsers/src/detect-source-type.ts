import { SUPPORTED_EXTENSIONS, sourceTypeOf } from '@rag/api-contract/source-types'
import type { SourceType } from './parsed-section.ts'

export { SUPPORTED_EXTENSIONS }

/** The type a file name says it is, or null when we cannot read that kind of file. */
export function detectSourceType(filename: string): SourceType | null {
  return sourceTypeOf(filename)
}
