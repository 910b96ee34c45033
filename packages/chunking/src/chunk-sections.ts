import { splitText } from './split-text.ts'

/**
 * Bumped whenever the same options start giving different chunks (2: small units packed), so
 * indexes built by an older chunker (evaluation corpora) are known to be stale.
 */
export const CHUNKER_VERSION = 2

export interface SectionInput {
  sourceId: string
  heading: string | null
  units: string[]
  /** Read by OCR from a picture of the text. */
  ocr?: boolean
}

export interface ParentSection {
  /** Position of the parent in the document; parents of one section share its source id. */
  ordinal: number
  sourceId: string
  heading: string | null
  text: string
  ocr?: boolean
}

export interface Chunk {
  parentOrdinal: number
  /** Position of the chunk inside its parent. */
  chunkIndex: number
  sourceId: string
  text: string
}

export interface ChunkOptions {
  size: number
  overlap: number
  /** Largest parent text: a longer section becomes several parents. */
  parentMaxChars: number
  /** Ordinal of the first parent (documents chunked in parts continue the numbering). */
  firstOrdinal?: number
}

/** Groups units into parents of at most parentMaxChars; a unit longer than that is cut first. */
function groupUnits(units: string[], parentMaxChars: number): string[][] {
  const groups: string[][] = []
  let group: string[] = []
  let size = 0
  for (const unit of units.flatMap((u) =>
    u.length > parentMaxChars ? splitText(u, { size: parentMaxChars, overlap: 0 }) : [u],
  )) {
    if (group.length > 0 && size + unit.length > parentMaxChars) {
      groups.push(group)
      group = []
      size = 0
    }
    group.push(unit)
    size += unit.length + 2
  }
  if (group.length > 0) groups.push(group)
  return groups
}

/**
 * A parent's search chunks: neighbouring units packed together up to the chunk size (a heading
 * line or a short paragraph alone says too little to be found by), a unit longer than the size
 * cut on its own at sentence ends. Units are never merged across parents.
 */
function packUnits(units: string[], options: ChunkOptions): string[] {
  const chunks: string[] = []
  let pack: string[] = []
  let length = 0
  const flush = () => {
    if (pack.length > 0) chunks.push(pack.join('\n\n'))
    pack = []
    length = 0
  }
  for (const unit of units) {
    if (unit.length > options.size) {
      flush()
      chunks.push(...splitText(unit, options))
      continue
    }
    if (pack.length > 0 && length + 2 + unit.length > options.size) flush()
    length += (pack.length > 0 ? 2 : 0) + unit.length
    pack.push(unit)
  }
  flush()
  return chunks
}

/**
 * Small-to-large: each section becomes one or more parent sections (what the LLM reads) and each
 * of its units packed into search chunks (what retrieval matches), a unit split only when longer than
 * the chunk size, so structure (a row, a subsection, a code block) decides the cut first.
 */
export function chunkSections(
  sections: SectionInput[],
  options: ChunkOptions,
): { parents: ParentSection[]; chunks: Chunk[] } {
  const parents: ParentSection[] = []
  const chunks: Chunk[] = []
  let ordinal = options.firstOrdinal ?? 0
  for (const section of sections) {
    for (const units of groupUnits(section.units, options.parentMaxChars)) {
      const parent = {
        ordinal: ordinal++,
        sourceId: section.sourceId,
        heading: section.heading,
        text: units.join('\n\n'),
        ...(section.ocr ? { ocr: true } : {}),
      }
      parents.push(parent)
      packUnits(units, options).forEach((text, chunkIndex) => {
        chunks.push({ parentOrdinal: parent.ordinal, chunkIndex, sourceId: section.sourceId, text })
      })
    }
  }
  return { parents, chunks }
}
