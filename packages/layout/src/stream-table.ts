import { type Box, median, overlap, right, unionOf } from './geometry.ts'
import { headerRowsOf, type Table, type TableCell } from './table.ts'
import { joinLines } from './table-text.ts'
import type { TextLine } from './text-lines.ts'

/** Lines side by side at one height: a row of a table, or of two columns of text. */
export interface Row {
  lines: TextLine[]
  top: number
  bottom: number
}

interface Column {
  from: number
  to: number
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

/** Stretches of x that some line covers, between gaps of at least `minGap` that none crosses. */
function coverage(lines: TextLine[], minGap: number): Column[] {
  const columns: Column[] = []
  for (const line of [...lines].sort((a, b) => a.x - b.x)) {
    const last = columns.at(-1)
    if (last && line.x <= last.to + minGap) last.to = Math.max(last.to, right(line))
    else columns.push({ from: line.x, to: right(line) })
  }
  return columns
}

/**
 * A stretch of x the pieces cover as one, cut where it holds several columns joined by a few
 * pieces that cross the gap between them (a long label, a header over two columns): the cut
 * crossed by fewest pieces (at most `bridges`), with at least two pieces wholly on each side and a
 * gap of `minGap` between them; each side cut again the same way.
 */
function parted(pieces: TextLine[], minGap: number, bridges: number): Column[] {
  const whole = coverage(pieces, minGap)
  if (pieces.length < 4 || pieces.length > MAX_PARTED_PIECES) return whole
  let best: { at: number; crossing: number; gap: number } | null = null
  for (const edge of pieces) {
    const at = right(edge)
    const after = pieces.filter((line) => line.x >= at)
    if (after.length < 2) continue
    const gap = Math.min(...after.map((line) => line.x)) - at
    if (gap < minGap) continue
    const before = pieces.filter((line) => right(line) <= at).length
    const crossing = pieces.filter((line) => line.x < at && right(line) > at).length
    if (before < 2 || crossing > bridges) continue
    if (!best || crossing < best.crossing || (crossing === best.crossing && gap > best.gap))
      best = { at, crossing, gap }
  }
  if (!best) return whole
  const cut = best.at
  return [
    ...parted(
      pieces.filter((line) => right(line) <= cut),
      minGap,
      bridges,
    ),
    ...parted(
      pieces.filter((line) => line.x >= cut),
      minGap,
      bridges,
    ),
  ]
}

/** Stretches holding more pieces than this are not cut (the search is quadratic). */
const MAX_PARTED_PIECES = 3000
/** At most this many pieces are set aside as crossing a gap between columns. */
const MAX_BRIDGES = 12

/**
 * The table's columns. The rows with the most pieces say where the columns are (a header that
 * spans several columns, a title row, would otherwise cross the gaps between them), a few pieces
 * crossing a gap set aside (see parted); a piece of another row that falls in none of those
 * columns opens one of its own.
 */
function columnsOf(rows: Row[], minGap: number): Column[] {
  const most = Math.max(0, ...rows.map((row) => row.lines.length))
  const dense = rows.filter((row) => row.lines.length >= Math.max(2, Math.ceil(most / 2)))
  const basis = dense.length > 0 ? dense : rows
  const pieces = basis.flatMap((row) => row.lines)
  const bridges = Math.min(MAX_BRIDGES, Math.max(1, Math.ceil(basis.length * 0.1)))
  const columns = coverage(pieces, minGap).flatMap((column) =>
    parted(
      pieces.filter((line) => line.x >= column.from - 0.5 && right(line) <= column.to + 0.5),
      minGap,
      bridges,
    ),
  )
  const strays = rows
    .filter((row) => !basis.includes(row))
    .flatMap((row) => row.lines)
    .filter((line) => !columns.some((column) => overlap(column.from, column.to, line.x, right(line)) > 0))
  return [...columns, ...coverage(strays, minGap)].sort((a, b) => a.from - b.from)
}

/** The columns a piece stands in: those it overlaps by a fair share of itself or of the column. */
function spanOf(line: TextLine, columns: Column[]): { first: number; last: number } | null {
  let first = -1
  let last = -1
  columns.forEach((column, c) => {
    const shared = overlap(column.from, column.to, line.x, right(line))
    if (shared > 0 && shared >= Math.min(line.width, column.to - column.from) * 0.25) {
      if (first < 0) first = c
      last = c
    }
  })
  if (first < 0) {
    // A sliver of a piece: the column it overlaps most, or the nearest.
    let best = -1
    let bestDistance = Number.POSITIVE_INFINITY
    columns.forEach((column, c) => {
      const distance = Math.max(0, column.from - right(line), line.x - column.to)
      if (distance < bestDistance) {
        best = c
        bestDistance = distance
      }
    })
    return best < 0 ? null : { first: best, last: best }
  }
  return { first, last }
}

interface PlacedRow {
  row: Row
  cells: Map<number, { span: number; lines: TextLine[] }>
}

/**
 * A row's pieces in its columns: a piece over several columns spans them when the row has nothing
 * else in them (a header over its sub-headers), else it stands in the one it overlaps most (a long
 * label reaching into the next column).
 */
function placed(row: Row, columns: Column[]): PlacedRow {
  const spans = row.lines.map((line) => ({ line, span: spanOf(line, columns) }))
  const cells = new Map<number, { span: number; lines: TextLine[] }>()
  for (const { line, span } of spans) {
    if (!span) continue
    let { first, last } = span
    const crowded = spans.some(
      (other) => other.line !== line && other.span && other.span.first <= last && other.span.last >= first,
    )
    if (last > first && crowded) {
      const most = (c: number) => overlap(columns[c]?.from ?? 0, columns[c]?.to ?? 0, line.x, right(line))
      let best = first
      for (let c = first; c <= last; c++) if (most(c) > most(best)) best = c
      first = best
      last = best
    }
    const cell = cells.get(first) ?? { span: 1, lines: [] }
    cell.span = Math.max(cell.span, last - first + 1)
    cell.lines.push(line)
    cells.set(first, cell)
  }
  return { row, cells }
}

/** The columns a placed row fills (a spanning cell fills all it spans). */
const filledColumns = (row: PlacedRow) =>
  new Set([...row.cells].flatMap(([c, cell]) => Array.from({ length: cell.span }, (_, k) => c + k)))

/** A value rather than words: a number, an amount, a percentage, a date. */
const VALUE = /^[\s\d.,%¥$€£円+\-−–()（）/:]+$/u
/** Text that goes on from the line above: it starts in lower case, or in Japanese. */
const GOES_ON = /^[\p{Ll}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}(（]/u

/**
 * Whether a row of text continues the row above (a cell's text wrapped onto another line) rather
 * than starting a row. With drawn row lines: when no line separates them. Without: its first
 * column is empty; it fills only columns the row above fills, none under a cell of the row above
 * that spans columns (a header over sub-headers is not continued by them); and it reads as more of
 * the same words — one column, or words going on in lower case, never values side by side (the
 * second line of a row label's figures is a row of its own).
 */
function continues(row: PlacedRow, above: PlacedRow, rowLines: number[] | null): boolean {
  if (rowLines) return !rowLines.some((y) => y > above.row.bottom - 1 && y < row.row.top + 1)
  if (row.cells.has(0)) return false
  const filled = filledColumns(row)
  const filledAbove = filledColumns(above)
  if (![...filled].every((c) => filledAbove.has(c))) return false
  const underSpan = [...above.cells].some(
    ([c, cell]) => cell.span > 1 && [...filled].some((f) => f >= c && f < c + cell.span),
  )
  if (underSpan) return false
  const texts = [...row.cells.values()].map((cell) =>
    cell.lines
      .map((line) => line.text)
      .join(' ')
      .trim(),
  )
  if (texts.length === 1) return !VALUE.test(texts[0] ?? '')
  return (
    texts.every((text) => !VALUE.test(text)) &&
    texts.filter((text) => GOES_ON.test(text)).length * 2 >= texts.length
  )
}

const SENTENCE_END = /[。．.!?！？]$/u

export interface StreamTableOptions {
  /** Only what reads as a table: not two columns of prose, most rows filled (else whatever the text makes). */
  strict?: boolean
  /** Heights of horizontal lines drawn across the table: when they part most rows, they say where rows end. */
  rowLines?: number[]
}

/**
 * The grid that rows of text stand in (a table drawn without lines, or whose lines do not say it
 * all): columns where gaps part the pieces of its fullest rows, a piece spanning the columns it
 * overlaps, a row that continues the one above (see `continues`) joined to it.
 */
export function streamTable(
  rows: Row[],
  size: number,
  { strict = true, rowLines = [] }: StreamTableOptions = {},
): { table: Table; lines: TextLine[] } | null {
  const columns = columnsOf(rows, size * 0.6)
  if (columns.length < (strict ? 2 : 1)) return null
  const pieces = rows.flatMap((row) => row.lines)
  const chars = pieces.map((line) => [...line.text].length)
  // Two columns of prose: long pieces, most of them sentences or parts of one.
  if (strict && columns.length === 2 && median(chars) > 25) return null
  if (strict && pieces.filter((line) => SENTENCE_END.test(line.text)).length > pieces.length / 2) return null
  const placedRows = rows.map((row) => placed(row, columns))
  // Drawn lines say where rows end only when they part most pairs of neighbouring rows.
  const parting = placedRows
    .slice(1)
    .filter((row, i) =>
      rowLines.some((y) => y > (placedRows[i]?.row.bottom ?? 0) - 1 && y < row.row.top + 1),
    ).length
  const ruledRows = placedRows.length > 2 && parting >= (placedRows.length - 1) / 2 ? rowLines : null
  const grid: { cells: Map<number, { span: number; lines: TextLine[] }> }[] = []
  let above: PlacedRow | undefined
  for (const row of placedRows) {
    const current = grid.at(-1)
    if (current && above && continues(row, above, ruledRows)) {
      for (const [c, cell] of row.cells) {
        const into = current.cells.get(c)
        if (into) into.lines.push(...cell.lines)
        else current.cells.set(c, { span: cell.span, lines: [...cell.lines] })
      }
    } else
      grid.push({
        cells: new Map([...row.cells].map(([c, cell]) => [c, { ...cell, lines: [...cell.lines] }])),
      })
    above = row
  }
  if (grid.length < (strict ? 2 : 1)) return null
  const cells: TableCell[] = []
  grid.forEach((row, r) => {
    for (const [c, cell] of [...row.cells].sort((a, b) => a[0] - b[0])) {
      const lines = cell.lines.sort((a, b) => a.y - b.y || a.x - b.x)
      const text = joinLines(lines.map((line) => line.text))
      if (text)
        cells.push({
          row: r,
          column: c,
          rowSpan: 1,
          columnSpan: cell.span,
          text,
          box: unionOf(lines as Box[]),
        })
    }
  })
  const filledRows = grid.filter((row) => row.cells.size >= 2).length
  if (strict && filledRows < Math.max(2, grid.length * 0.6)) return null
  const table: Table = {
    box: unionOf(pieces),
    rows: grid.length,
    columns: columns.length,
    cells,
    kind: 'unruled',
    headerRows: 0,
  }
  return { table: { ...table, headerRows: headerRowsOf(table) }, lines: pieces }
}
