import { type Box, bottom, centerX, centerY, contains, median, overlap, right, unionOf } from './geometry.ts'
import type { Segment, TextRun } from './page-content.ts'
import { ruledTables } from './ruled-tables.ts'
import type { Table } from './table.ts'
import { tableInRegion } from './table-in-region.ts'
import type { TextLine } from './text-lines.ts'
import { unruledTables } from './unruled-tables.ts'

export interface FoundTable {
  table: Table
  /** The lines it holds (left out of the page's paragraphs). */
  lines: TextLine[]
}

/** Whether two tables' boxes stand one above the other, close and mostly over the same columns. */
function stacked(a: Box, b: Box, lineHeight: number): boolean {
  const [upper, lower] = a.y <= b.y ? [a, b] : [b, a]
  const gap = lower.y - bottom(upper)
  const shared = overlap(a.x, right(a), b.x, right(b))
  return gap <= lineHeight * 2.5 && shared >= Math.min(a.width, b.width) * 0.5
}

/**
 * The tables of a page: grids drawn with lines, then text standing in columns; a table read in
 * pieces (a header ruled above and below, its body without lines; a body whose rows the rulings
 * do not all part) made one region and read again as one (tableInRegion). A single row by itself
 * is a row of boxes, not a table.
 */
export function pageTables(runs: TextRun[], segments: Segment[], lines: TextLine[]): FoundTable[] {
  const ruled = ruledTables(runs, segments)
  const inRuled = (line: TextLine) =>
    ruled.some((table) => contains(table.box, centerX(line), centerY(line), 1))
  const unruled = unruledTables(lines.filter((line) => !inRuled(line)))
  const lineHeight = median(lines.map((line) => line.height)) || 10
  const regions: { box: Box; parts: Table[] }[] = [...ruled, ...unruled.map((found) => found.table)].map(
    (table) => ({
      box: table.box,
      parts: [table],
    }),
  )
  // Pieces one above the other joined, until none are left to join.
  for (let joined = true; joined; ) {
    joined = false
    for (let i = 0; i < regions.length && !joined; i++)
      for (let j = i + 1; j < regions.length && !joined; j++) {
        const a = regions[i] as (typeof regions)[number]
        const b = regions[j] as (typeof regions)[number]
        if (!stacked(a.box, b.box, lineHeight)) continue
        regions.splice(j, 1)
        regions[i] = { box: unionOf([a.box, b.box]), parts: [...a.parts, ...b.parts] }
        joined = true
      }
  }
  const found: FoundTable[] = []
  for (const region of regions) {
    const [only] = region.parts
    const table =
      region.parts.length === 1 && only?.kind === 'unruled' ? only : tableInRegion(runs, segments, region.box)
    if (!table || table.rows < 2) continue
    found.push({
      table,
      lines: lines.filter((line) => contains(region.box, centerX(line), centerY(line), 1)),
    })
  }
  return found
}
