/** A cited table row (`price.pdf:p3:t1:r4`, `deck.pptx:s2:t1:r1`): its caption and cells. */
export interface TableRow {
  caption: string | null
  cells: { column: string; value: string }[]
}

const ROW_SOURCE = /:t\d+:r\d+$/
const CELL = /^([^:]{1,80}): (.+)$/s

/**
 * A table row's indexed text (`料金プラン一覧 — プラン: エンタープライズ / 月額料金: 48,000円`, as the
 * parsers write it) back as cells, to show as a table; null for any other source.
 */
export function tableRowOf(sourceId: string, text: string): TableRow | null {
  if (!ROW_SOURCE.test(sourceId)) return null
  const line = text.split('\n')[0] ?? ''
  const split = line.indexOf(' — ')
  const caption = split >= 0 ? line.slice(0, split) : null
  const cells = (split >= 0 ? line.slice(split + 3) : line).split(' / ').map((piece) => {
    const match = CELL.exec(piece)
    return match ? { column: match[1] ?? '', value: match[2] ?? '' } : { column: '', value: piece }
  })
  return cells.length > 0 ? { caption, cells } : null
}

const SHEET_ROW_SOURCE = /(?::|!)r\d+$/

/**
 * A CSV or spreadsheet row (`faq.csv:r12`, `book.xlsx:Sheet1!r4`), indexed a `column: value` a
 * line, back as cells; null when it is not one, or a line is not a cell.
 */
export function sheetRowOf(sourceId: string, text: string): TableRow | null {
  if (!SHEET_ROW_SOURCE.test(sourceId) || ROW_SOURCE.test(sourceId)) return null
  const cells = text.split('\n').map((line) => CELL.exec(line))
  if (cells.length === 0 || cells.some((match) => match === null)) return null
  return {
    caption: null,
    cells: cells.map((match) => ({ column: match?.[1] ?? '', value: match?.[2] ?? '' })),
  }
}
