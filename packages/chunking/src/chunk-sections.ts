import { splitText } from './split-text.ts'

export interface SectionInput {
  sourceId: string
  heading: string | null
  units: string[]
}

export interface ParentSection {
  /** Position of the parent in the document; parents of one section share its source id. */
  ordinal: number
  sourceId: string
  heading: string | null
  text: string
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
 * Small-to-large: each section becomes one or more parent sections (what the LLM reads) and each
 * of its units one or more search chunks (what retrieval matches), split only when longer than the
 * chunk size, so structure (a row, a subsection, a code block) decides the cut first.
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
      }
      parents.push(parent)
      let chunkIndex = 0
      for (const unit of units) {
        for (const text of splitText(unit, options)) {
          chunks.push({
            parentOrdinal: parent.ordinal,
            chunkIndex: chunkIndex++,
            sourceId: section.sourceId,
            text,
          })
        }
      }
    }
  }
  return { parents, chunks }
}
