import ExcelJS from 'exceljs'
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from './parse-limits.ts'
import { DocumentParseError, type ParsedSection } from './parsed-section.ts'
import { type MergedRange, mergeSweep, takeOutMerges } from './xlsx-merges.ts'
import { checkUnzippedSize } from './zip-size.ts'

type Sheet = ExcelJS.Worksheet

/** A cell's value as text: a formula's cached result, a date as ISO, rich text and links as their text. */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return ''
  if (value instanceof Date) {
    const iso = value.toISOString()
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace('.000Z', 'Z')
  }
  if (typeof value !== 'object') return String(value).trim()
  if ('richText' in value)
    return value.richText
      .map((run) => run.text)
      .join('')
      .trim()
  if ('formula' in value || 'sharedFormula' in value)
    return cellText((value as { result?: ExcelJS.CellValue }).result ?? null)
  if ('text' in value && typeof value.text === 'string') return value.text.trim()
  if ('error' in value) return ''
  return ''
}

type Sweep = ReturnType<typeof mergeSweep>

/** What a cell of the sweep's current row shows: a merged cell shows its range's first (master) cell. */
function shownAt(sheet: Sheet, sweep: Sweep, row: number, column: number): string {
  const master = sweep.masterOf(column)
  const cell = master ? sheet.getRow(master.row).getCell(master.column) : sheet.getRow(row).getCell(column)
  return cellText(cell.value)
}

/** The header's names: its first row, with the row below when a cell of it is merged over several columns (「売上」 over 上期 and 下期). */
function headerOf(
  sheet: Sheet,
  sweep: Sweep,
  ranges: MergedRange[],
  first: number,
  columns: number,
): { names: string[]; rows: number; firstValues: string[] } {
  const twoRows = ranges.some((range) => range.top === first && range.left !== range.right)
  sweep.moveTo(first)
  const top = Array.from({ length: columns }, (_, i) => shownAt(sheet, sweep, first, i + 1))
  if (twoRows) sweep.moveTo(first + 1)
  const below = Array.from({ length: columns }, (_, i) =>
    twoRows ? shownAt(sheet, sweep, first + 1, i + 1) : '',
  )
  const names = top.map(
    (name, i) => [...new Set([name, below[i] ?? ''].filter(Boolean))].join(' ') || `column ${i + 1}`,
  )
  return { names, rows: twoRows ? 2 : 1, firstValues: top }
}

/**
 * One section per data row of every sheet, its header as `column: value` lines like a CSV row's,
 * cited `book.xlsx:Sheet1!r12` (the sheet's own row number). The header is the sheet's first row
 * with content, two rows when a cell of it is merged over several columns (the names joined:
 * 「売上 上期」); merged cells below give every row they cover their value; formulas are read as
 * their cached results. Empty rows are skipped.
 */
export async function* parseXlsx(
  data: Uint8Array,
  filename: string,
  limits: Pick<ParseLimits, 'maxUnzippedBytes' | 'maxCsvRows' | 'maxCsvColumns'> = DEFAULT_PARSE_LIMITS,
): AsyncGenerator<ParsedSection> {
  // An OLE compound file: a password-protected workbook (encrypted OOXML) or an old .xls.
  if (Buffer.from(data.subarray(0, 8)).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])))
    throw new DocumentParseError(
      'the workbook is password-protected (encrypted) or an old .xls file: save it without a password as .xlsx and upload it again',
    )
  await checkUnzippedSize(data, 'Excel (.xlsx)', limits.maxUnzippedBytes)
  const workbook = new ExcelJS.Workbook()
  let merges: Map<string, MergedRange[]>
  try {
    const plain = await takeOutMerges(data)
    merges = plain.merges
    await workbook.xlsx.load(Buffer.from(plain.data) as unknown as ArrayBuffer)
  } catch (error) {
    throw new DocumentParseError(
      `not a readable Excel workbook: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    )
  }
  let rows = 0
  for (const sheet of workbook.worksheets) {
    if (sheet.state !== 'visible' && sheet.state !== undefined) continue
    const columns = sheet.actualColumnCount > 0 ? sheet.columnCount : 0
    if (columns === 0) continue
    if (columns > limits.maxCsvColumns)
      throw new DocumentParseError(
        `sheet ${sheet.name} has ${columns} columns; at most ${limits.maxCsvColumns} are read (CSV_MAX_COLUMNS)`,
      )
    const ranges = merges.get(sheet.name) ?? []
    const sweep = mergeSweep(ranges)
    const last = Math.max(sheet.rowCount, sweep.lastRow)
    let first = 0
    for (let r = 1; r <= sheet.rowCount && first === 0; r++) if (sheet.getRow(r).hasValues) first = r
    if (first === 0) continue
    const header = headerOf(sheet, sweep, ranges, first, columns)
    let emitted = 0
    for (let r = first + header.rows; r <= last; r++) {
      sweep.moveTo(r)
      if (!sheet.getRow(r).hasValues && !sweep.coveredFromAbove()) continue
      rows += 1
      if (rows > limits.maxCsvRows)
        throw new DocumentParseError(
          `the workbook has more than ${limits.maxCsvRows} data rows (CSV_MAX_ROWS): split it`,
        )
      const lines = header.names.flatMap((name, i) => {
        const value = shownAt(sheet, sweep, r, i + 1)
        return value ? [`${name}: ${value}`] : []
      })
      if (lines.length === 0) continue
      emitted += 1
      yield { sourceId: `${filename}:${sheet.name}!r${r}`, heading: sheet.name, units: [lines.join('\n')] }
    }
    // A sheet with nothing under its first row (a note, a title) is that row alone, not a header.
    if (emitted === 0) {
      const values = header.firstValues.filter(Boolean)
      if (values.length > 0)
        yield {
          sourceId: `${filename}:${sheet.name}!r${first}`,
          heading: sheet.name,
          units: [values.join('\n')],
        }
    }
  }
}
