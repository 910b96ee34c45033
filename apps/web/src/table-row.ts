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
