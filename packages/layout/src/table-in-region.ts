import { type Box, centerX, centerY, contains, median } from './geometry.ts'
import type { Segment, TextRun } from './page-content.ts'
import { ruledTables } from './ruled-tables.ts'
import type { Table } from './table.ts'
import { linesOf } from './text-lines.ts'
import { rowsOf, tableOf } from './unruled-tables.ts'

/**
 * The table in a region known to hold one (a table detector's box, a user's selection, a
 * benchmark's ground truth): its drawn grid when the rulings inside it make one covering most of
 * it, else the grid its text stands in, rows by height and columns by the gaps no text crosses.
 */
export function tableInRegion(runs: TextRun[], segments: Segment[], region: Box): Table | null {
  const inside = runs.filter((run) => contains(region, centerX(run), centerY(run), 2))
  if (inside.length === 0) return null
  const near = (x: number, y: number) => contains(region, x, y, 4)
  const rulings = segments.filter((s) => near(s.x1, s.y1) && near(s.x2, s.y2))
  const ruled = ruledTables(inside, rulings).sort(
    (a, b) => b.box.width * b.box.height - a.box.width * a.box.height,
  )[0]
  if (ruled && ruled.box.width * ruled.box.height >= region.width * region.height * 0.6) return ruled
  const lines = linesOf(inside)
  const size = median(lines.map((line) => line.fontSize)) || 10
  return tableOf(rowsOf(lines), size, { strict: false })?.table ?? null
}
