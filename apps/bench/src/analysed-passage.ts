import { analyzeText } from '@rag/keyword'

/** A chunk as the pipeline stores it: its text, its words, its distinct character pairs. */
export interface AnalysedChunk {
  text: string
  words: string[]
  /** Distinct character pairs, sorted. */
  bigrams: string[]
  /** Character pairs counted with repeats (the chunk's length for keyword scoring). */
  bigramCount: number
}

/** A passage (a parent section) and its chunks, analysed. */
export interface AnalysedPassage {
  text: string
  chunks: AnalysedChunk[]
}

/** What a parent section keeps of its words: counts per word and their total. */
export interface ParentTerms {
  termTf: Record<string, number>
  termCount: number
}

/** About `size` characters per chunk, cut at a space or a Japanese full stop where one is near. */
export function chunkText(text: string, size = 500): string[] {
  const chunks: string[] = []
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + size)
    if (end < text.length) {
      const cut = Math.max(text.lastIndexOf(' ', end), text.lastIndexOf('。', end) + 1)
      if (cut > start + size / 2) end = cut
    }
    chunks.push(text.slice(start, end).trim())
    start = end
  }
  return chunks.filter(Boolean)
}

/** A passage cut into chunks of about `chunkChars`, each analysed as the pipeline analyses it. */
export function analysePassage(text: string, chunkChars = 500): AnalysedPassage {
  return {
    text,
    chunks: chunkText(text, chunkChars).map((piece) => {
      const { words, bigrams } = analyzeText(piece)
      return { text: piece, words, bigrams: [...new Set(bigrams)].sort(), bigramCount: bigrams.length }
    }),
  }
}

/**
 * A parent's word counts, from its chunks' words: the same as analysing the whole passage but
 * where a chunk boundary splits a word, at no second pass of the (slow) Japanese analyser.
 */
export function parentTerms(chunks: readonly { words: readonly string[] }[]): ParentTerms {
  const termTf: Record<string, number> = {}
  let termCount = 0
  for (const chunk of chunks)
    for (const word of chunk.words) {
      termTf[word] = (termTf[word] ?? 0) + 1
      termCount++
    }
  return { termTf, termCount }
}
