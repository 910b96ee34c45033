export interface SplitOptions {
  /** Largest chunk, in characters. */
  size: number
  /** Characters repeated at the start of the next chunk; any value is safe (see below). */
  overlap: number
}

// Where a chunk may end, best first: a paragraph, a line or a sentence (Japanese 。！？ or an
// English full stop followed by a space), then any space (a word boundary in spaced languages).
const BOUNDARIES: RegExp[] = [/\n\s*\n/g, /\n|[。！？!?]|[.;:](?=\s)/g, /[、，,]|\s/g]

/** The end (exclusive) of the best boundary in text[from, to], or -1. */
function lastBoundary(text: string, from: number, to: number): number {
  const window = text.slice(from, to)
  for (const pattern of BOUNDARIES) {
    let end = -1
    for (const match of window.matchAll(pattern)) end = from + match.index + match[0].length
    if (end > from) return end
  }
  return -1
}

/** The first position in text[from, to) right after a boundary, so an overlap starts on a word or sentence. */
function firstBoundary(text: string, from: number, to: number): number {
  const window = text.slice(from, to)
  for (const pattern of BOUNDARIES.slice(1)) {
    pattern.lastIndex = 0
    const match = pattern.exec(window)
    pattern.lastIndex = 0
    if (match) return from + match.index + match[0].length
  }
  return from
}

/**
 * Fixed-size chunks with overlap, cut at the best boundary in the second half of each window
 * (never mid-word in English, at a sentence end in Japanese when there is one). Always advances at
 * least one character per chunk, so no overlap value can loop forever.
 */
export function splitText(text: string, { size, overlap }: SplitOptions): string[] {
  if (size < 1) throw new RangeError('size must be at least 1')
  const clean = text.trim()
  if (clean.length <= size) return clean ? [clean] : []
  const chunks: string[] = []
  let start = 0
  while (start < clean.length) {
    let end = Math.min(start + size, clean.length)
    if (end < clean.length) {
      const boundary = lastBoundary(clean, start + Math.floor(size / 2), end)
      if (boundary > start) end = boundary
    }
    const chunk = clean.slice(start, end).trim()
    if (chunk) chunks.push(chunk)
    if (end >= clean.length) break
    if (overlap <= 0) {
      start = end
      continue
    }
    // Strictly after the previous start, whatever the overlap: this is what guarantees termination.
    const overlapStart = Math.max(end - overlap, start + 1)
    start = firstBoundary(clean, overlapStart, end)
  }
  return chunks
}
