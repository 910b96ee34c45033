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

/**
 * Rows that name the columns: the first row when its cells are short labels rather than values
 * (no number-only cell, none longer than the body cells tend to be) and the table has rows below it.
 */
export function headerRowsOf(grid: string[][]): number {
  const [first, ...rest] = grid
  if (!first || rest.length === 0) return 0
  const filled = first.filter((text) => text.trim() !== '')
  if (filled.length < Math.min(2, first.length)) return 0
  if (filled.some((text) => /^[\d\s.,%¥$€円+\-−()（）/:]+$/u.test(text))) return 0
  if (filled.some((text) => [...text].length > 40)) return 0
  return 1
}
