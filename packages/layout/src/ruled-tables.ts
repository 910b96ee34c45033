import { type Box, centerX, centerY, median, right, unionOf } from './geometry.ts'
import type { Segment, TextRun } from './page-content.ts'
import { headerRowsOf, type Table, type TableCell } from './table.ts'
import { cellText, splitIntoWords } from './table-text.ts'

/** Points within which two rulings are the same line, or a ruling reaches another. */
const SNAP = 2
/** Rulings shorter than this are glyph parts or bullets, not table lines. */
const MIN_RULING = 6
/** Pages drawing more rulings than this are charts or art: tables are not looked for in them. */
export const MAX_RULINGS = 50_000

interface Ruling {
  /** Horizontal: y, x from..to. Vertical: x, y from..to. */
  at: number
  from: number
  to: number
}

/** Joins collinear rulings that touch or overlap (a line drawn in pieces, a thin rectangle's edges). */
function merged(rulings: Ruling[]): Ruling[] {
  const sorted = [...rulings].sort((a, b) => a.at - b.at || a.from - b.from)
  const out: Ruling[] = []
  for (const ruling of sorted) {
    const last = out.at(-1)
    if (last && Math.abs(last.at - ruling.at) <= SNAP && ruling.from <= last.to + SNAP) {
      last.to = Math.max(last.to, ruling.to)
      last.at = (last.at + ruling.at) / 2
    } else out.push({ ...ruling })
  }
  return out
}

/** The page's horizontal and vertical rulings (diagonals and curves are not table lines). */
export function rulingsOf(segments: Segment[]): { horizontal: Ruling[]; vertical: Ruling[] } {
  const horizontal: Ruling[] = []
  const vertical: Ruling[] = []
  for (const { x1, y1, x2, y2 } of segments.slice(0, MAX_RULINGS)) {
    if (Math.abs(y1 - y2) <= 1 && Math.abs(x1 - x2) >= MIN_RULING)
      horizontal.push({ at: (y1 + y2) / 2, from: Math.min(x1, x2), to: Math.max(x1, x2) })
    else if (Math.abs(x1 - x2) <= 1 && Math.abs(y1 - y2) >= MIN_RULING)
      vertical.push({ at: (x1 + x2) / 2, from: Math.min(y1, y2), to: Math.max(y1, y2) })
  }
  return { horizontal: merged(horizontal), vertical: merged(vertical) }
}

const crosses = (h: Ruling, v: Ruling) =>
  v.at >= h.from - SNAP && v.at <= h.to + SNAP && h.at >= v.from - SNAP && h.at <= v.to + SNAP

/** Positions within SNAP of each other made one (the middle of each group). */
function snapped(values: number[]): number[] {
  const sorted = [...values].sort((a, b) => a - b)
  const groups: number[][] = []
  for (const value of sorted) {
    const group = groups.at(-1)
    if (group && value - (group.at(-1) as number) <= SNAP) group.push(value)
    else groups.push([value])
  }
  return groups.map((group) => group.reduce((sum, value) => sum + value, 0) / group.length)
}

/**
 * Tables drawn with lines: the rulings that cross one another make a grid; each run of text is
 * put in the cell its middle falls in (runs that hold several words are cut into words first, so
 * a line of text drawn across cells is shared between them); two grid cells are one spanning cell
 * where the ruling between them is not drawn. Grids of fewer than 2 × 2 cells are not tables.
 */
export function ruledTables(runs: TextRun[], segments: Segment[]): Table[] {
  const { horizontal, vertical } = rulingsOf(segments)
  if (horizontal.length < 2 || vertical.length < 2) return []
  // Connected groups of crossing rulings (union-find over horizontals, joined through verticals).
  const parent = horizontal.map((_, i) => i)
  const find = (i: number): number => {
    const up = parent[i] as number
    if (up === i) return i
    const root = find(up)
    parent[i] = root
    return root
  }
  const byVertical = vertical.map((v) => horizontal.flatMap((h, i) => (crosses(h, v) ? [i] : [])))
  for (const crossing of byVertical)
    for (const i of crossing.slice(1)) parent[find(i)] = find(crossing[0] as number)
  const groups = new Map<number, number[]>()
  horizontal.forEach((_, i) => {
    const root = find(i)
    groups.set(root, [...(groups.get(root) ?? []), i])
  })
  const words = splitIntoWords(runs)
  const tables: Table[] = []
  for (const members of groups.values()) {
    const hs = members.map((i) => horizontal[i] as Ruling)
    const vs = vertical.filter((_, j) => (byVertical[j] ?? []).some((i) => members.includes(i)))
    if (hs.length < 2 || vs.length < 2) continue
    const table = gridTable(hs, vs, words)
    if (table) tables.push(table)
  }
  return tables
}

function gridTable(hs: Ruling[], vs: Ruling[], words: TextRun[]): Table | null {
  const ys = snapped(hs.map((h) => h.at))
  const xs = snapped(vs.map((v) => v.at))
  if (ys.length < 2 || xs.length < 2) return null
  const rows = ys.length - 1
  const columns = xs.length - 1
  // Whether a ruling is drawn along x = at between y0 and y1 (or along y = at between x0 and x1).
  const drawn = (list: Ruling[], at: number, from: number, to: number) =>
    list.some(
      (r) =>
        Math.abs(r.at - at) <= SNAP && r.from <= from + (to - from) * 0.5 && r.to >= to - (to - from) * 0.5,
    )
  // Words apart on both sides of a column line that is not drawn, each in its own cell of the two
  // it divides: the columns are parted by the gap between them (rulings drawn only around some
  // rows, shaded rows), not spanned. With one of the two cells empty, a label over both spans them
  // (燃費 over 市街地 | 高速), whatever stands further along the row.
  const parted = (x: number, y0: number, y1: number, from: number, to: number) => {
    const band = words.filter(
      (word) => centerY(word) > y0 && centerY(word) < y1 && right(word) > from && word.x < to,
    )
    if (band.some((word) => word.x < x && right(word) > x)) return false
    const left = Math.max(...band.filter((word) => right(word) <= x).map(right))
    const rightOf = Math.min(...band.filter((word) => word.x >= x).map((word) => word.x))
    const size = median(band.map((word) => word.fontSize)) || 10
    return Number.isFinite(left) && Number.isFinite(rightOf) && rightOf - left >= size * 0.8
  }
  // Grid cells joined where no ruling separates them.
  const owner = Array.from({ length: rows * columns }, (_, i) => i)
  const find = (i: number): number => {
    const up = owner[i] as number
    if (up === i) return i
    const root = find(up)
    owner[i] = root
    return root
  }
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < columns; c++) {
      const [y0, y1, x0, x1] = [ys[r] as number, ys[r + 1] as number, xs[c] as number, xs[c + 1] as number]
      const x2 = xs[c + 2] ?? x1
      if (c + 1 < columns && !drawn(vs, x1, y0, y1) && !parted(x1, y0, y1, x0, x2))
        owner[find(r * columns + c + 1)] = find(r * columns + c)
      if (r + 1 < rows && !drawn(hs, y1, x0, x1)) owner[find((r + 1) * columns + c)] = find(r * columns + c)
    }
  const box: Box = {
    x: xs[0] as number,
    y: ys[0] as number,
    width: (xs.at(-1) as number) - (xs[0] as number),
    height: (ys.at(-1) as number) - (ys[0] as number),
  }
  const inside = words.filter((word) => {
    const x = centerX(word)
    const y = centerY(word)
    return x > box.x && x < right(box) && y > box.y && y < box.y + box.height
  })
  const cellWords = new Map<number, TextRun[]>()
  for (const word of inside) {
    const c = xs.findIndex(
      (x, i) => i < columns && centerX(word) >= x && centerX(word) < (xs[i + 1] as number),
    )
    const r = ys.findIndex((y, i) => i < rows && centerY(word) >= y && centerY(word) < (ys[i + 1] as number))
    if (r < 0 || c < 0) continue
    const root = find(r * columns + c)
    cellWords.set(root, [...(cellWords.get(root) ?? []), word])
  }
  const cells: TableCell[] = []
  const spans = new Map<number, { r0: number; r1: number; c0: number; c1: number }>()
  for (let i = 0; i < rows * columns; i++) {
    const root = find(i)
    const r = Math.floor(i / columns)
    const c = i % columns
    const span = spans.get(root) ?? { r0: r, r1: r, c0: c, c1: c }
    spans.set(root, {
      r0: Math.min(span.r0, r),
      r1: Math.max(span.r1, r),
      c0: Math.min(span.c0, c),
      c1: Math.max(span.c1, c),
    })
  }
  for (const [root, span] of spans) {
    const text = cellText(cellWords.get(root) ?? [])
    if (!text) continue
    cells.push({
      row: span.r0,
      column: span.c0,
      rowSpan: span.r1 - span.r0 + 1,
      columnSpan: span.c1 - span.c0 + 1,
      text,
      box: unionOf([
        { x: xs[span.c0] as number, y: ys[span.r0] as number, width: 0, height: 0 },
        { x: xs[span.c1 + 1] as number, y: ys[span.r1 + 1] as number, width: 0, height: 0 },
      ]),
    })
  }
  if (cells.length < 2) return null
  const table = compacted({ box, rows, columns, cells, kind: 'ruled', headerRows: 0 })
  return { ...table, headerRows: headerRowsOf(table) }
}

/** The table without rows and columns that hold no cell (a double ruling's sliver between its lines). */
export function compacted(table: Table): Table {
  // A row is kept when some cell starts in it; likewise a column.
  const rowStarts = [...new Set(table.cells.map((cell) => cell.row))].sort((a, b) => a - b)
  const columnStarts = [...new Set(table.cells.map((cell) => cell.column))].sort((a, b) => a - b)
  const rowIndex = (r: number) => rowStarts.filter((start) => start <= r).length - 1
  const columnIndex = (c: number) => columnStarts.filter((start) => start <= c).length - 1
  const cells = table.cells.map((cell) => {
    const row = rowIndex(cell.row)
    const column = columnIndex(cell.column)
    return {
      ...cell,
      row,
      column,
      rowSpan: rowIndex(cell.row + cell.rowSpan - 1) - row + 1,
      columnSpan: columnIndex(cell.column + cell.columnSpan - 1) - column + 1,
    }
  })
  return { ...table, rows: rowStarts.length, columns: columnStarts.length, cells }
}
