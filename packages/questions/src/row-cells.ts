/** A cell as a row's text names it: `column: value`. */
const CELL = /^([^:\n]{1,80}): (.*)$/s
/** Between a document table's caption and its cells, and between its cells (parsers' tableRowText). */
const CAPTION_END = ' — '
const CELL_SEPARATOR = ' / '

/** Row passages: a spreadsheet's (`faq.csv:r3`, `book.xlsx!Sheet1:r2`) and a document table's (`…:p3:t1:r4`). */
export const ROW_SOURCE = /[:!]r\d+$/

export interface RowCell {
  /** The column's name (its header path); empty for a value the table gave no name. */
  column: string
  value: string
  /** The cell as the passage's text writes it, to quote and mark. */
  line: string
}

/**
 * A row's cells, or null when the text is not a row. A spreadsheet row is one `column: value`
 * line per cell (a line that is not continues the cell before it: a multi-line value); a document
 * table's row is one line, `caption — column: value / column: value` (a part that is not
 * `column: value` continues the value before it, which held the separator, or stands alone).
 */
export function cellsOf(text: string): RowCell[] | null {
  return text.includes('\n') || !text.includes(CELL_SEPARATOR) ? lineCells(text) : documentRowCells(text)
}

function lineCells(text: string): RowCell[] | null {
  const cells: RowCell[] = []
  for (const line of text.split('\n')) {
    const match = CELL.exec(line)
    const last = cells.at(-1)
    if (match) cells.push({ column: match[1] ?? '', value: match[2] ?? '', line })
    else if (last) {
      last.value += `\n${line}`
      last.line += `\n${line}`
    } else return null
  }
  return cells
}

function documentRowCells(text: string): RowCell[] | null {
  const dash = text.indexOf(CAPTION_END)
  const afterCaption = dash >= 0 ? text.slice(dash + CAPTION_END.length) : text
  // A caption is there only when a named cell follows it (a value may hold a dash too).
  const body = dash >= 0 && CELL.test(afterCaption.split(CELL_SEPARATOR)[0] ?? '') ? afterCaption : text
  const cells: RowCell[] = []
  for (const part of body.split(CELL_SEPARATOR)) {
    const match = CELL.exec(part)
    const last = cells.at(-1)
    if (match) cells.push({ column: match[1] ?? '', value: match[2] ?? '', line: part })
    else if (last?.column) {
      last.value += `${CELL_SEPARATOR}${part}`
      last.line += `${CELL_SEPARATOR}${part}`
    } else cells.push({ column: '', value: part, line: part })
  }
  return cells.some((cell) => cell.column) ? cells : null
}
