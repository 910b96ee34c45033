import { createHash } from 'node:crypto'

/** Identity of a chunk's text for the embedding cache: same text, same vector, whatever document. */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}
