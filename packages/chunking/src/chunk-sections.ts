import { splitText } from './split-text.ts'

/**
 * Bumped whenever the same options start giving different chunks (2: small units packed; 3: each
 * chunk indexed with its heading path), so
 * indexes built by an older chunker (evaluation corpora) are known to be stale.
 */
export const CHUNKER_VERSION = 3

/** Where a piece of text stands: a box on a page of the document (PDF points from the top-left). */
export interface TextRegion {
  page: number
  x: number
  y: number
  width: number
  height: number
}

export interface SectionInput {
  sourceId: string
  heading: string | null
  units: string[]
  /** Read by OCR from a picture of the text. */
  ocr?: boolean
  /** Where each unit stands (parallel to `units`), when the parser knows. */
  regions?: TextRegion[][]
  /** A text file's lines the section spans. */
  lines?: { from: number; to: number }
}

export interface ParentSection {
  /** Position of the parent in the document; parents of one section share its source id. */
  ordinal: number
  sourceId: string
  heading: string | null
  text: string
  ocr?: boolean
  /** A text file's lines its section spans (what a citation names). */
  lines?: { from: number; to: number }
}

export interface Chunk {
  parentOrdinal: number
  /** Position of the chunk inside its parent. */
  chunkIndex: number
  sourceId: string
  text: string
  /** Where the units it was cut from stand (what a viewer highlights for it). */
  regions?: TextRegion[]
  /**
   * Where it stands in its document (its section's heading path): indexed and embedded with its
   * text, so a question naming a chapter finds the chapter's passages; shown beside the text.
   */
  context?: string
}

/** What search indexes and embeds of a chunk: its context, then its text. */
export const indexedText = (chunk: Pick<Chunk, 'text' | 'context'>) =>
  chunk.context ? `${chunk.context}\n${chunk.text}` : chunk.text

/** A unit of text with the place it stands. */
interface Unit {
  text: string
  regions: TextRegion[]
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
function groupUnits(units: Unit[], parentMaxChars: number): Unit[][] {
  const groups: Unit[][] = []
  let group: Unit[] = []
  let size = 0
  for (const unit of units.flatMap((u) =>
    u.text.length > parentMaxChars
      ? splitText(u.text, { size: parentMaxChars, overlap: 0 }).map((text) => ({ text, regions: u.regions }))
      : [u],
  )) {
    if (group.length > 0 && size + unit.text.length > parentMaxChars) {
      groups.push(group)
      group = []
      size = 0
    }
    group.push(unit)
    size += unit.text.length + 2
  }
  if (group.length > 0) groups.push(group)
  return groups
}

/**
 * A parent's search chunks: neighbouring units packed together up to the chunk size (a heading
 * line or a short paragraph alone says too little to be found by), a unit longer than the size
 * cut on its own at sentence ends. Units are never merged across parents.
 */
function packUnits(units: Unit[], options: ChunkOptions): Unit[] {
  const chunks: Unit[] = []
  let pack: Unit[] = []
  let length = 0
  const flush = () => {
    if (pack.length > 0)
      chunks.push({
        text: pack.map((unit) => unit.text).join('\n\n'),
        regions: pack.flatMap((unit) => unit.regions),
      })
    pack = []
    length = 0
  }
  for (const unit of units) {
    if (unit.text.length > options.size) {
      flush()
      chunks.push(...splitText(unit.text, options).map((text) => ({ text, regions: unit.regions })))
      continue
    }
    if (pack.length > 0 && length + 2 + unit.text.length > options.size) flush()
    length += (pack.length > 0 ? 2 : 0) + unit.text.length
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
    const units = section.units.map((text, i) => ({ text, regions: section.regions?.[i] ?? [] }))
    for (const group of groupUnits(units, options.parentMaxChars)) {
      const parent = {
        ordinal: ordinal++,
        sourceId: section.sourceId,
        heading: section.heading,
        text: group.map((unit) => unit.text).join('\n\n'),
        ...(section.ocr ? { ocr: true } : {}),
        ...(section.lines ? { lines: section.lines } : {}),
      }
      parents.push(parent)
      packUnits(group, options).forEach((chunk, chunkIndex) => {
        chunks.push({
          parentOrdinal: parent.ordinal,
          chunkIndex,
          sourceId: section.sourceId,
          text: chunk.text,
          ...(section.heading ? { context: section.heading } : {}),
          ...(chunk.regions.length > 0 ? { regions: chunk.regions } : {}),
        })
      })
    }
  }
  return { parents, chunks }
}
