/** A cell of a table's grid, as the ICDAR 2013 competition's ground truth and our reader give it. */
export interface GridCell {
  row: number
  column: number
  rowSpan: number
  columnSpan: number
  text: string
}

/**
 * A cell's content as compared: Unicode-normalised (NFKC) with every space, line break and soft
 * hyphen removed, so a cell read over two lines matches one read as one; and decimals without
 * their trailing zeros (the competition matched cells by the PDF's drawing instructions, not by
 * text, and its ground truth writes 6.60 as 6.6 in places).
 */
export const comparableContent = (text: string) =>
  text
    .normalize('NFKC')
    .replace(/[\s\u00ad]+/g, '')
    .replace(/(\d\.\d*?)0+(?!\d)/g, '$1')
    .replace(/(\d)\.(?!\d)/g, '$1')

/**
 * The table's adjacency relations, the ICDAR 2013 Table Competition's structure measure: each
 * non-empty cell and its nearest non-empty neighbour to the right in each of the rows it spans,
 * and below in each of the columns it spans, as `content → content (direction)` (duplicates kept
 * once per table: a spanning cell meets the same neighbour through several rows).
 */
export function adjacencyRelations(cells: GridCell[]): string[] {
  const filled = cells.filter((cell) => comparableContent(cell.text) !== '')
  const relations = new Set<string>()
  for (const cell of filled) {
    const lastRow = cell.row + cell.rowSpan - 1
    const lastColumn = cell.column + cell.columnSpan - 1
    for (let row = cell.row; row <= lastRow; row++) {
      const next = nearest(
        filled.filter((other) => other.column > lastColumn && covers(other.row, other.rowSpan, row)),
        (other) => other.column,
      )
      if (next) relations.add(relation(cell, next, 'right'))
    }
    for (let column = cell.column; column <= lastColumn; column++) {
      const next = nearest(
        filled.filter((other) => other.row > lastRow && covers(other.column, other.columnSpan, column)),
        (other) => other.row,
      )
      if (next) relations.add(relation(cell, next, 'below'))
    }
  }
  return [...relations]
}

const covers = (start: number, span: number, at: number) => at >= start && at < start + span

const nearest = (cells: GridCell[], position: (cell: GridCell) => number) =>
  cells.reduce<GridCell | undefined>(
    (best, cell) => (!best || position(cell) < position(best) ? cell : best),
    undefined,
  )

const relation = (from: GridCell, to: GridCell, direction: 'right' | 'below') =>
  `${comparableContent(from.text)}\u241f${comparableContent(to.text)}\u241f${direction}`

export interface RelationScore {
  found: number
  expected: number
  correct: number
}

/** How many of the relations found are expected (each expected relation matched at most once). */
export function scoreRelations(found: string[], expected: string[]): RelationScore {
  const left = new Map<string, number>()
  for (const relation of expected) left.set(relation, (left.get(relation) ?? 0) + 1)
  let correct = 0
  for (const relation of found) {
    const count = left.get(relation) ?? 0
    if (count > 0) {
      correct += 1
      left.set(relation, count - 1)
    }
  }
  return { found: found.length, expected: expected.length, correct }
}

/**
 * Precision and recall per document, averaged over the documents (as the competition reported
 * them; a document where nothing was found counts 0 precision), F1 of the two averages, and the
 * same over all relations pooled.
 */
export function summarise(scores: RelationScore[]) {
  const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b)
  const precision = scores.reduce((sum, s) => sum + ratio(s.correct, s.found), 0) / Math.max(1, scores.length)
  const recall = scores.reduce((sum, s) => sum + ratio(s.correct, s.expected), 0) / Math.max(1, scores.length)
  const total = scores.reduce(
    (sum, s) => ({
      found: sum.found + s.found,
      expected: sum.expected + s.expected,
      correct: sum.correct + s.correct,
    }),
    { found: 0, expected: 0, correct: 0 },
  )
  const f1 = (p: number, r: number) => (p + r === 0 ? 0 : (2 * p * r) / (p + r))
  const pooledP = ratio(total.correct, total.found)
  const pooledR = ratio(total.correct, total.expected)
  return {
    documents: scores.length,
    precision,
    recall,
    f1: f1(precision, recall),
    pooled: { precision: pooledP, recall: pooledR, f1: f1(pooledP, pooledR) },
  }
}
