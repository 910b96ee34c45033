import { median, right } from './geometry.ts'
import { rowsOf, streamTable } from './stream-table.ts'
import type { Table } from './table.ts'
import type { TextLine } from './text-lines.ts'

/**
 * Tables drawn without lines: runs of three or more rows of two or more pieces of text each, whose
 * pieces stand in columns (see streamTable). Not a table: two columns of prose (long pieces,
 * sentences), which the gutter also separates.
 */
export function unruledTables(lines: TextLine[]): { table: Table; lines: TextLine[] }[] {
  const rows = rowsOf(lines)
  const found: { table: Table; lines: TextLine[] }[] = []
  let start = 0
  while (start < rows.length) {
    // The longest run of rows of several pieces, without a gap of more than two lines between them.
    let end = start
    const size = median(rows[start]?.lines.map((line) => line.fontSize) ?? [10]) || 10
    const near = (i: number) => i === start || (rows[i]?.top ?? 0) - (rows[i - 1]?.bottom ?? 0) <= size * 2.5
    const several = (i: number) => (rows[i]?.lines.length ?? 0) >= 2
    while (end < rows.length && near(end)) {
      if (several(end)) end++
      // A cell wrapped onto a line of its own (one or two rows of one piece) inside the run.
      else if (end > start && several(end + 1) && near(end + 1)) end += 2
      else if (end > start && !several(end + 1) && several(end + 2) && near(end + 1) && near(end + 2))
        end += 3
      else break
    }
    let first = start
    let last = end
    if (end - start >= 3) {
      const pieces = rows.slice(start, end).flatMap((row) => row.lines)
      const left = Math.min(...pieces.map((line) => line.x))
      const inside = (line: TextLine) =>
        line.x > left + size && right(line) <= Math.max(...pieces.map(right)) + size
      const lone = (i: number) => rows[i]?.lines.length === 1 && inside(rows[i]?.lines[0] as TextLine)
      // A header over some columns just above the run, a wrapped cell's last line just below it.
      if (start > 0 && lone(start - 1) && near(start)) first = start - 1
      const aligned = (i: number) =>
        lone(i) && pieces.some((line) => Math.abs(line.x - (rows[i]?.lines[0]?.x ?? 0)) <= 2)
      if (end < rows.length && aligned(end) && near(end)) last = end + 1
    }
    const run = rows.slice(first, last)
    const table = run.length >= 3 ? streamTable(run, size) : null
    if (table) {
      found.push(table)
      start = last
    } else start = Math.max(start + 1, end)
  }
  return found
}
