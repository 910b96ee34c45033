import { type Box, centerX, centerY, contains, median } from './geometry.ts'
import type { Segment, TextRun } from './page-content.ts'
import { ruledTables, rulingsOf } from './ruled-tables.ts'
import { rowsOf, streamTable } from './stream-table.ts'
import type { Table } from './table.ts'
import { linesOf, type TextLine } from './text-lines.ts'

/**
 * Whether a drawn grid leaves rows out: in one of its rows, two cells each hold several lines at
 * the same heights (the rows were drawn without lines between them, as in a table ruled only under
 * its header), so its text, not its lines, says where rows are.
 */
function missesRows(table: Table, lines: TextLine[]): boolean {
  const size = median(lines.map((line) => line.fontSize)) || 10
  const heights = (box: Box) =>
    new Set(
      lines
        .filter((line) => contains(box, centerX(line), centerY(line), 1))
        .map((line) => Math.round((line.y + line.height / 2) / (size * 0.5))),
    )
  for (let row = 0; row < table.rows; row++) {
    const stacked = table.cells
      .filter((cell) => cell.row === row)
      .map((cell) => heights(cell.box))
      .filter((set) => set.size >= 2)
    for (let i = 0; i < stacked.length; i++)
      for (let j = i + 1; j < stacked.length; j++) {
        const a = stacked[i] as Set<number>
        const shared = [...(stacked[j] as Set<number>)].filter(
          (h) => a.has(h) || a.has(h - 1) || a.has(h + 1),
        )
        if (shared.length >= 2) return true
      }
  }
  return false
}

/**
 * The table in a region known to hold one (a table detector's box, a user's selection, a
 * benchmark's ground truth): its drawn grid when the rulings inside it make one covering most of
 * it, holding a row of text per row and as many columns as its text stands in; else the grid its
 * text stands in (see streamTable), rows parted by the lines drawn across it when they part most.
 */
export function tableInRegion(runs: TextRun[], segments: Segment[], region: Box): Table | null {
  const inside = runs.filter((run) => contains(region, centerX(run), centerY(run), 2))
  if (inside.length === 0) return null
  const near = (x: number, y: number) => contains(region, x, y, 4)
  const rulings = segments.filter((s) => near(s.x1, s.y1) && near(s.x2, s.y2))
  const lines = linesOf(inside)
  const ruled = ruledTables(inside, rulings).sort(
    (a, b) => b.box.width * b.box.height - a.box.width * a.box.height,
  )[0]
  const size = median(lines.map((line) => line.fontSize)) || 10
  const rowLines = rulingsOf(rulings)
    .horizontal.filter((h) => h.to - h.from >= region.width * 0.5)
    .map((h) => h.at)
  const stream = streamTable(rowsOf(lines), size, { strict: false, rowLines })?.table ?? null
  const covers = ruled && ruled.box.width * ruled.box.height >= region.width * region.height * 0.6
  // A grid whose lines leave out rows, or a column line (the text stands in more columns), is read from its text.
  if (
    covers &&
    !missesRows(ruled, lines) &&
    !(stream && stream.columns > ruled.columns && stream.rows >= ruled.rows)
  )
    return ruled
  return stream
}
