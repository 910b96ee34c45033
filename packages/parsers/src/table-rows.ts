/**
 * A table row as the text that is indexed and cited for it: each value with its column's name, and
 * the table's caption or heading in front — 「料金プラン一覧 — プラン: エンタープライズ / 月額料金:
 * 48,000円 / ストレージ: 2TB」 — so the row alone answers「エンタープライズのストレージは？」. Empty
 * cells are left out; a value without a column name (or equal to it) stands alone.
 */
export function tableRowText(caption: string | null, header: string[], cells: string[]): string | null {
  const values = cells
    .map((value, c) => [header[c]?.trim() ?? '', value.replace(/\s+/g, ' ').trim()] as const)
    .filter(([, value]) => value !== '')
  if (values.length === 0) return null
  const text = values
    .map(([name, value]) => (name && name !== value ? `${name}: ${value}` : value))
    .join(' / ')
  return caption ? `${caption} — ${text}` : text
}

/** Between the levels of a column's name under a spanning header: 燃費 › 市街地. */
export const HEADER_JOINER = ' › '

/** The header rows' cells as column names (a cell spanning columns names each of them). */
export function columnNames(rows: { cells: { text: string; span: number }[] }[], columns: number): string[] {
  const names = Array.from({ length: columns }, () => [] as string[])
  for (const row of rows) {
    let c = 0
    for (const cell of row.cells) {
      for (let k = 0; k < cell.span && c < columns; k++, c++) if (cell.text) names[c]?.push(cell.text)
    }
  }
  return names.map((parts) => [...new Set(parts)].join(HEADER_JOINER))
}
