import { CsvError, parse } from 'csv-parse'
import { decodeText } from './decode-text.ts'
import { DocumentParseError, type ParsedSection } from './parsed-section.ts'

/**
 * One section per data row, source `name.csv:rN` (N = 1-based data row), text `column: value` per
 * line with the header's names; empty cells are left out. Streams rows, so a large CSV is never
 * held as records all at once.
 */
export async function* parseCsv(data: Uint8Array, filename: string): AsyncGenerator<ParsedSection> {
  const text = decodeText(data, 'CSV')
  const parser = parse(text, {
    columns: (header: string[]) => header.map((name, i) => name.trim() || `column ${i + 1}`),
    skip_empty_lines: true,
    trim: true,
    relax_column_count: false,
  })
  let row = 0
  try {
    for await (const record of parser as AsyncIterable<Record<string, string>>) {
      row += 1
      const lines = Object.entries(record)
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
