import { type Box, median, overlap, right, unionOf } from './geometry.ts'
import { headerRowsOf, type Table, type TableCell, tableGrid } from './table.ts'
import { joinLines } from './table-text.ts'
import type { TextLine } from './text-lines.ts'

/** Lines side by side at one height: a row of a table, or of two columns of text. */
export interface Row {
  lines: TextLine[]
  top: number
  bottom: number
}

/** The lines in rows (by height), each row left to right. */
export function rowsOf(lines: TextLine[]): Row[] {
  const sorted = [...lines].sort((a, b) => a.y + a.height / 2 - (b.y + b.height / 2))
  const rows: Row[] = []
  for (const line of sorted) {
    const middle = line.y + line.height / 2
    const row = rows.at(-1)
    if (row && middle >= row.top && middle <= row.bottom) {
      row.lines.push(line)
      row.bottom = Math.max(row.bottom, line.y + line.height)
    } else rows.push({ lines: [line], top: line.y, bottom: line.y + line.height })
  }
  for (const row of rows) row.lines.sort((a, b) => a.x - b.x)
  return rows
}

/** Columns of a run of rows: the stretches of x that some line covers, between gaps that none does. */
function columnsOf(rows: Row[], minGap: number): { from: number; to: number }[] {
  const spans = rows
    .flatMap((row) => row.lines.map((line) => ({ from: line.x, to: right(line) })))
    .sort((a, b) => a.from - b.from)
  const columns: { from: number; to: number }[] = []
  for (const span of spans) {
    const last = columns.at(-1)
    if (last && span.from <= last.to + minGap) last.to = Math.max(last.to, span.to)
    else columns.push({ ...span })
  }
  return columns
}

const SENTENCE_END = /[。．.!?！？]$/u

/**
 * Tables drawn without lines: runs of three or more rows of two or more pieces of text each, whose
 * pieces stand in columns — stretches of x separated by gaps no piece of any row crosses. A row
 * whose first column is empty continues the row above (a wrapped cell). Not a table: two columns
 * of prose (long pieces, sentences), which the gutter also separates.
 */
export function unruledTables(lines: TextLine[]): { table: Table; lines: TextLine[] }[] {
  const rows = rowsOf(lines)
  const found: { table: Table; lines: TextLine[] }[] = []
  let start = 0
  while (start < rows.length) {
    // The longest run of rows of several pieces, without a gap of more than two lines between them.
    let end = start
    const size = median(rows[start]?.lines.map((line) => line.fontSize) ?? [10]) || 10
    while (
      end < rows.length &&
      (rows[end]?.lines.length ?? 0) >= 2 &&
      (end === start || (rows[end]?.top ?? 0) - (rows[end - 1]?.bottom ?? 0) <= size * 2.5)
    )
      end++
    const run = rows.slice(start, end)
    const table = run.length >= 3 ? tableOf(run, size) : null
    if (table) {
      found.push(table)
      start = end
    } else start = Math.max(start + 1, end)
  }
  return found
}

/**
 * The grid the rows' text stands in (see unruledTables). `strict`: only what reads as a table (not
 * two columns of prose, rows mostly filled); not strict, whatever the text makes (a table's region
 * is known: it is the table).
 */
export function tableOf(
  rows: Row[],
  size: number,
  { strict = true }: { strict?: boolean } = {},
): { table: Table; lines: TextLine[] } | null {
  const columns = columnsOf(rows, size * 0.6)
  if (columns.length < (strict ? 2 : 1)) return null
  const pieces = rows.flatMap((row) => row.lines)
  const chars = pieces.map((line) => [...line.text].length)
  // Two columns of prose: long pieces, most of them sentences or parts of one.
  if (strict && columns.length === 2 && median(chars) > 25) return null
  if (strict && pieces.filter((line) => SENTENCE_END.test(line.text)).length > pieces.length / 2) return null
  const columnOf = (line: TextLine) =>
    columns.findIndex((column) => overlap(column.from, column.to, line.x, right(line)) > 0)
  const grid: { texts: string[][]; boxes: Box[][] }[] = []
  for (const row of rows) {
    const texts: string[][] = columns.map(() => [])
    const boxes: Box[][] = columns.map(() => [])
    for (const line of row.lines) {
      const c = columnOf(line)
      if (c < 0) continue
      texts[c]?.push(line.text)
      boxes[c]?.push(line)
    }
    const previous = grid.at(-1)
    // A wrapped cell: nothing in the first column, and a row above to continue.
    if (previous && (texts[0]?.length ?? 0) === 0) {
      texts.forEach((list, c) => {
        previous.texts[c]?.push(...list)
        previous.boxes[c]?.push(...(boxes[c] ?? []))
      })
      continue
    }
    grid.push({ texts, boxes })
  }
  if (grid.length < (strict ? 2 : 1)) return null
  const cells: TableCell[] = []
  grid.forEach((row, r) => {
    row.texts.forEach((list, c) => {
      const text = joinLines(list)
      if (text)
        cells.push({ row: r, column: c, rowSpan: 1, columnSpan: 1, text, box: unionOf(row.boxes[c] ?? []) })
    })
  })
  const filledRows = grid.filter((row) => row.texts.filter((list) => list.length > 0).length >= 2).length
  if (strict && filledRows < Math.max(2, grid.length * 0.6)) return null
  const table: Table = {
    box: unionOf(pieces),
    rows: grid.length,
    columns: columns.length,
    cells,
    kind: 'unruled',
    headerRows: 0,
  }
  return { table: { ...table, headerRows: headerRowsOf(tableGrid(table)) }, lines: pieces }
}
