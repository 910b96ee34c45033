import { XMLParser } from 'fast-xml-parser'
import JSZip from 'jszip'

/** A merged range of cells, 1-based rows and columns, both ends included. */
export interface MergedRange {
  top: number
  left: number
  bottom: number
  right: number
}

const CELL = /^\$?([A-Z]{1,3})\$?(\d+)$/

const columnNumber = (letters: string) =>
  [...letters].reduce((sum, letter) => sum * 26 + letter.charCodeAt(0) - 64, 0)

/** `B2:C4` (or a single `B2`) as a range; null for what is not a cell reference. */
export function parseRange(ref: string): MergedRange | null {
  const [from, to = from] = ref.split(':')
  const start = CELL.exec(from ?? '')
  const end = CELL.exec(to ?? '')
  if (!start?.[1] || !start[2] || !end?.[1] || !end[2]) return null
  const [a, b] = [columnNumber(start[1]), columnNumber(end[1])]
  const [r1, r2] = [Number(start[2]), Number(end[2])]
  return { top: Math.min(r1, r2), bottom: Math.max(r1, r2), left: Math.min(a, b), right: Math.max(a, b) }
}

const MERGE_BLOCK = /<(?:\w+:)?mergeCells\b[^>]*?(?:\/>|>[\s\S]*?<\/(?:\w+:)?mergeCells>)/
const MERGE_REF = /<(?:\w+:)?mergeCell\b[^>]*?\bref="([^"]+)"/g

const asList = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value]

/** Each worksheet's file in the package (xl/worksheets/sheet1.xml) by the sheet's name. */
async function sheetFiles(zip: JSZip): Promise<Map<string, string>> {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', removeNSPrefix: true })
  const workbook = parser.parse((await zip.file('xl/workbook.xml')?.async('string')) ?? '')
  const rels = parser.parse((await zip.file('xl/_rels/workbook.xml.rels')?.async('string')) ?? '')
  const targets = new Map<string, string>(
    asList<{ Id: string; Target: string }>(rels?.Relationships?.Relationship).map((rel) => [
      rel.Id,
      rel.Target.startsWith('/') ? rel.Target.slice(1) : `xl/${rel.Target}`,
    ]),
  )
  const files = new Map<string, string>()
  for (const sheet of asList<{ name: string; id: string }>(workbook?.workbook?.sheets?.sheet)) {
    const target = targets.get(sheet.id)
    if (target) files.set(String(sheet.name), target)
  }
  return files
}

/**
 * The workbook without its merged ranges, in reading order, and the ranges of each sheet (by
 * name). ExcelJS checks every merged range it reads against all the ranges before it (20,000
 * ranges took two minutes), and its streaming reader ignores them; taken out here, they are
 * applied by the parser in one pass (`mergeSweep`).
 */
export async function takeOutMerges(
  data: Uint8Array,
): Promise<{ data: Uint8Array; merges: Map<string, MergedRange[]> }> {
  const zip = await JSZip.loadAsync(data)
  const merges = new Map<string, MergedRange[]>()
  for (const [name, path] of await sheetFiles(zip)) {
    const file = zip.file(path)
    if (!file) continue
    const xml = await file.async('string')
    const block = MERGE_BLOCK.exec(xml)
    if (!block) continue
    const ranges = [...block[0].matchAll(MERGE_REF)].flatMap((match) => {
      const range = parseRange(match[1] ?? '')
      return range ? [range] : []
    })
    merges.set(name, ranges)
    zip.file(path, xml.slice(0, block.index) + xml.slice(block.index + block[0].length))
  }
  return { data: await inReadingOrder(zip), merges }
}

/** What a sheet is read with: before the sheets in the package, so they can be read as they come. */
const FIRST = [
  '[Content_Types].xml',
  '_rels/.rels',
  'xl/workbook.xml',
  'xl/_rels/workbook.xml.rels',
  'xl/styles.xml',
  'xl/sharedStrings.xml',
]

/**
 * The package again (stored, not compressed: it is read once, right away), the workbook, its
 * relationships, styles and shared strings first: Excel writes the shared strings after the
 * sheets, and a streaming reader meeting a sheet before them would copy it to a temporary file.
 */
async function inReadingOrder(zip: JSZip): Promise<Uint8Array> {
  const ordered = new JSZip()
  const names = Object.keys(zip.files).filter((name) => !zip.files[name]?.dir)
  for (const name of [
    ...FIRST.filter((name) => names.includes(name)),
    ...names.filter((name) => !FIRST.includes(name)),
  ]) {
    const file = zip.file(name)
    if (file) ordered.file(name, await file.async('uint8array'))
  }
  return ordered.generateAsync({ type: 'uint8array', compression: 'STORE' })
}

/**
 * Merged ranges met row by row, in increasing row order: which range covers a cell of the current
 * row (its master cell, the range's top-left, holds the value). Each range is taken up once and
 * dropped once, so a sheet is read in time linear in its rows and ranges.
 */
export function mergeSweep(ranges: MergedRange[]) {
  const sorted = [...ranges].sort((a, b) => a.top - b.top)
  let next = 0
  let active: MergedRange[] = []
  let row = 0
  return {
    /** The last row a range ends on (0 without any). */
    lastRow: sorted.reduce((last, range) => Math.max(last, range.bottom), 0),
    moveTo(to: number) {
      if (to < row) throw new Error(`merged ranges are read in row order (row ${to} after ${row})`)
      row = to
      for (let range = sorted[next]; range && range.top <= to; range = sorted[++next]) active.push(range)
      active = active.filter((range) => range.bottom >= to)
    },
    /** The ranges whose master cell is on the current row. */
    starting: () => active.filter((range) => range.top === row),
    /** The range covering this column of the current row, when its master is another cell. */
    coveringOf(column: number): MergedRange | null {
      for (const range of active)
        if (column >= range.left && column <= range.right && (row !== range.top || column !== range.left))
          return range
      return null
    },
    /** Whether a range from a row above reaches into the current row (its cells show that value). */
    coveredFromAbove: () => active.some((range) => range.top < row),
  }
}
