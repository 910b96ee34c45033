import { Readable } from 'node:stream'
import ExcelJS from 'exceljs'
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from './parse-limits.ts'
import { DocumentParseError, type ParsedSection } from './parsed-section.ts'
import { type MergedRange, mergeSweep, takeOutMerges } from './xlsx-merges.ts'
import { checkUnzippedSize } from './zip-size.ts'

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

type Limits = Pick<ParseLimits, 'maxUnzippedBytes' | 'maxCsvRows' | 'maxCsvColumns'>
type StreamedSheet = AsyncIterable<ExcelJS.Row> & { name: string; state?: string }

/**
 * One section per data row of every sheet, its header as `column: value` lines like a CSV row's,
 * cited `book.xlsx:Sheet1!r12` (the sheet's own row number). The header is the sheet's first row
 * with content, two rows when a cell of it is merged over several columns (the names joined:
 * 「売上 上期」); merged cells below give every row they cover their value; formulas are read as
 * their cached results. Empty rows are skipped. Sheets are read as a stream, a row at a time, so
 * a workbook of a million rows reaches the row limit (CSV_MAX_ROWS) rather than the memory cap.
 */
export async function* parseXlsx(
  data: Uint8Array,
  filename: string,
  limits: Limits = DEFAULT_PARSE_LIMITS,
): AsyncGenerator<ParsedSection> {
  // An OLE compound file: a password-protected workbook (encrypted OOXML) or an old .xls.
  if (Buffer.from(data.subarray(0, 8)).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])))
    throw new DocumentParseError(
      'the workbook is password-protected (encrypted) or an old .xls file: save it without a password as .xlsx and upload it again',
    )
  await checkUnzippedSize(data, 'Excel (.xlsx)', limits.maxUnzippedBytes)
  const unreadable = (error: unknown) =>
    error instanceof DocumentParseError
      ? error
      : new DocumentParseError(
          `not a readable Excel workbook: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        )
  let prepared: Awaited<ReturnType<typeof takeOutMerges>>
  try {
    prepared = await takeOutMerges(data)
  } catch (error) {
    throw unreadable(error)
  }
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(pieces(prepared.data)), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    // Styles say which numbers are dates.
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  })
  const counted = { rows: 0 }
  try {
    for await (const sheet of reader as AsyncIterable<StreamedSheet>) {
      if (sheet.state !== undefined && sheet.state !== 'visible') continue
      yield* sheetSections(sheet, prepared.merges.get(sheet.name) ?? [], filename, limits, counted)
    }
  } catch (error) {
    throw unreadable(error)
  }
}

/**
 * The package in 64 KiB pieces (views, not copies): the reader parses each piece it is given in
 * one go, so one piece of the whole file would hold every row's parse at once.
 */
function* pieces(data: Uint8Array): Generator<Buffer> {
  for (let at = 0; at < data.length; at += 65_536)
    yield Buffer.from(data.buffer, data.byteOffset + at, Math.min(65_536, data.length - at))
}

/** A sheet's rows as sections, read as they stream (rows a merged range reaches into included). */
async function* sheetSections(
  sheet: StreamedSheet,
  ranges: MergedRange[],
  filename: string,
  limits: Limits,
  counted: { rows: number },
): AsyncGenerator<ParsedSection> {
  const sweep = mergeSweep(ranges)
  // The value of each range's master cell, taken when its row passes.
  const masters = new Map<MergedRange, string>()
  let header: { names: string[]; row: number; values: string[]; waitsFor: number | null } | null = null
  let emitted = 0
  const section = (row: number, lines: string[]): ParsedSection => ({
    sourceId: `${filename}:${sheet.name}!r${row}`,
    heading: sheet.name,
    units: [lines.join('\n')],
  })
  /** The texts a row shows, column 1 first (a merged cell shows its master's). */
  const textsOf = (row: number, cells: ExcelJS.Row | null): string[] => {
    sweep.moveTo(row)
    for (const range of sweep.starting())
      masters.set(range, cells ? cellText(cells.getCell(range.left).value) : '')
    const width = Math.max(cells?.cellCount ?? 0, header?.names.length ?? 0)
    if (width > limits.maxCsvColumns)
      throw new DocumentParseError(
        `sheet ${sheet.name} has ${width} columns; at most ${limits.maxCsvColumns} are read (CSV_MAX_COLUMNS)`,
      )
    return Array.from({ length: width }, (_, i) => {
      const range = sweep.coveringOf(i + 1)
      if (range) return masters.get(range) ?? ''
      return cells ? cellText(cells.getCell(i + 1).value) : ''
    })
  }
  function* take(row: number, cells: ExcelJS.Row | null): Generator<ParsedSection> {
    const texts = textsOf(row, cells)
    if (!texts.some(Boolean)) return
    if (!header) {
      // A header cell merged over several columns heads the row below it: the two rows are one header.
      const twoRows = ranges.some((range) => range.top === row && range.left !== range.right)
      header = { names: texts, row, values: texts, waitsFor: twoRows ? row + 1 : null }
      return
    }
    if (header.waitsFor === row) {
      header.names = header.names.map((name, i) =>
        [...new Set([name, texts[i] ?? ''].filter(Boolean))].join(' '),
      )
      header.waitsFor = null
      return
    }
    counted.rows += 1
    if (counted.rows > limits.maxCsvRows)
      throw new DocumentParseError(
        `the workbook has more than ${limits.maxCsvRows} data rows (CSV_MAX_ROWS): split it`,
      )
    const names = header.names
    const lines = texts.flatMap((value, i) => (value ? [`${names[i] || `column ${i + 1}`}: ${value}`] : []))
    emitted += 1
    yield section(row, lines)
  }
  let last = 0
  for await (const cells of sheet) {
    // Rows the file leaves out that a merged range from above reaches into show its values.
    for (let gap = last + 1; gap < cells.number; gap++) {
      sweep.moveTo(gap)
      if (sweep.coveredFromAbove()) yield* take(gap, null)
    }
    yield* take(cells.number, cells)
    last = cells.number
  }
  for (let gap = last + 1; gap <= sweep.lastRow; gap++) yield* take(gap, null)
  // A sheet with nothing under its first row (a note, a title) is that row alone, not a header.
  const alone = header as { values: string[]; row: number } | null
  if (emitted === 0 && alone && alone.values.some(Boolean))
    yield section(alone.row, alone.values.filter(Boolean))
}
