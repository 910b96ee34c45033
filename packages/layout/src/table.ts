import type { Box } from './geometry.ts'

/** A cell of a table: where it starts in the grid, how many rows and columns it spans, its text. */
export interface TableCell {
  row: number
  column: number
  rowSpan: number
  columnSpan: number
  text: string
  box: Box
}

/** A table recovered from a page: its box, its grid's size and its cells (empty ones left out). */
export interface Table {
  box: Box
  rows: number
  columns: number
  cells: TableCell[]
  /** How it was found: drawn lines (ruled), or text aligned in columns (unruled). */
  kind: 'ruled' | 'unruled'
  /** Rows at its top that name the columns (0 when none could be told). */
  headerRows: number
}

/** The table as rows of cell texts (a spanning cell's text in its first row and column). */
export function tableGrid(table: Table): string[][] {
  const grid = Array.from({ length: table.rows }, () => Array.from({ length: table.columns }, () => ''))
  for (const cell of table.cells) {
    const row = grid[cell.row]
    if (row) row[cell.column] = cell.text
  }
  return grid
}

const VALUE_ONLY = /^[\d\s.,%¥$€円+\-−()（）/:]+$/u

/** Cells that read as column names: short labels, not values. */
const labelsOnly = (texts: string[]) =>
  texts.every((text) => !VALUE_ONLY.test(text) && [...text].length <= 40)

/**
 * Rows that name the columns. The first row does when its cells are short labels rather than values
 * (no number-only cell, none longer than the body cells tend to be) and the table has rows below it.
 * A row under it names columns too while a header cell above spans into it or over several of its
 * columns (燃費 over 市街地 | 高速, 車種 down both rows) and its own cells are labels: a two-level
 * header, never its first data row.
 */
export function headerRowsOf(table: Table): number {
  const grid = tableGrid(table)
  const [first, ...rest] = grid
  if (!first || rest.length === 0) return 0
  const filled = first.filter((text) => text.trim() !== '')
  if (filled.length < Math.min(2, first.length) || !labelsOnly(filled)) return 0
  let rows = 1
  while (rows < table.rows - 1) {
    const above = table.cells.filter((cell) => cell.row < rows)
    const spansInto = above.some((cell) => cell.row + cell.rowSpan > rows)
    const spansOver = above.some((cell) => cell.row + cell.rowSpan === rows && cell.columnSpan > 1)
    const own = table.cells.filter((cell) => cell.row === rows).map((cell) => cell.text)
    if (!(spansInto || spansOver) || own.length === 0 || !labelsOnly(own)) break
    rows += 1
  }
  return rows
}
