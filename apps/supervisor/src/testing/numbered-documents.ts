import { chunkSections } from '@rag/chunking'
import { type ParsedSection, parseDocument } from '@rag/parsers'

/** Chunking small enough that each numbered document makes several chunks. */
export const SMALL_CHUNKS = { size: 300, overlap: 60, parentMaxChars: 900 }

/** Document n of a test corpus: two paragraphs of twelve sentences, each document different. */
export function numberedDocument(n: number): string {
  const sentences = Array.from(
    { length: 12 },
    (_, i) => `Document ${n} sentence ${i} explains lamp feature number ${(n * 13 + i) % 97} in some detail.`,
  )
  return `${sentences.slice(0, 6).join(' ')}\n\n${sentences.slice(6).join(' ')}\n`
}

/** How many chunks document n must end with, by the same parser and chunker the workers run. */
export async function expectedChunks(n: number, chunking = SMALL_CHUNKS): Promise<number> {
  const sections: ParsedSection[] = []
  for await (const section of parseDocument(
    new TextEncoder().encode(numberedDocument(n)),
    `doc-${n}.txt`,
    'text',
    { maxSectionChars: chunking.parentMaxChars },
  ))
    sections.push(section)
  return chunkSections(sections, chunking).chunks.length
}
