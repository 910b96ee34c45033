import { CsvError, parse } from 'csv-parse'
import { decodeText } from './decode-text.ts'
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from './parse-limits.ts'
import { DocumentParseError, type ParsedSection } from './parsed-section.ts'

/**
 * One section per data row, source `name.csv:rN` (N = 1-based data row), text `column: value` per
 * line with the header's names; empty cells are left out. Rows as real files have them: one with
 * fewer cells than the header (a comment or section line) keeps what it has, one with more names
 * its extra cells `column N`. Streams rows, so a large CSV is never held as records all at once.
 */
export async function* parseCsv(
  data: Uint8Array,
  filename: string,
  { maxCsvRows, maxCsvColumns }: Pick<ParseLimits, 'maxCsvRows' | 'maxCsvColumns'> = DEFAULT_PARSE_LIMITS,
): AsyncGenerator<ParsedSection> {
  const text = decodeText(data, 'CSV')
  const parser = parse(text, {
    skip_empty_lines: true,
    trim: true,
    relax_column_count: true,
    // One record may not swallow the file (an unclosed quote would otherwise read to the end).
    max_record_size: 1024 * 1024,
  })
  let header: string[] | null = null
  let row = 0
  try {
    for await (const cells of parser as AsyncIterable<string[]>) {
      if (cells.length > maxCsvColumns) {
        throw new DocumentParseError(
          `the CSV has ${cells.length} columns; at most ${maxCsvColumns} are read (CSV_MAX_COLUMNS)`,
        )
      }
      if (header === null) {
        header = cells.map((name, i) => name || `column ${i + 1}`)
        continue
      }
      row += 1
      if (row > maxCsvRows) {
        throw new DocumentParseError(`the CSV has more than ${maxCsvRows} data rows (CSV_MAX_ROWS): split it`)
      }
      const lines = cells
        .map((value, i) => [header?.[i] ?? `column ${i + 1}`, value] as const)
        .filter(([, value]) => value !== '')
        .map(([column, value]) => `${column}: ${value}`)
      if (lines.length === 0) continue
      yield { sourceId: `${filename}:r${row}`, heading: null, units: [lines.join('\n')] }
    }
  } catch (error) {
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines
      throw new DocumentParseError(`malformed CSV at line ${line ?? '?'}: ${error.message}`, { cause: error })
    }
    throw error
  }
  if (row === 0) throw new DocumentParseError('the CSV has a header but no data rows')
}
