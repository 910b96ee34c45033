import { access, readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { XMLParser } from 'fast-xml-parser'
import type { GridCell } from './adjacency-relations.ts'

/** A table's part on one page, as the ICDAR 2013 ground truth gives it (PDF user space, y up). */
export interface TruthRegion {
  table: number
  page: number
  /** Null where the region file gives none (us-035a's second table, in tabula-java's copy). */
  box: { x1: number; y1: number; x2: number; y2: number } | null
  cells: GridCell[]
}

export interface TruthDocument {
  name: string
  pdf: string
  regions: TruthRegion[]
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: (name) => ['table', 'region', 'cell'].includes(name),
})

type Attributes = Record<string, string | undefined>
type XmlCell = Attributes & { content?: string | number }
type XmlRegion = { id?: string; page?: string; 'bounding-box'?: Attributes; cell?: XmlCell[] }
type XmlTable = { id?: string; region?: XmlRegion[] }

const number = (value: string | undefined, fallback = 0) => (value === undefined ? fallback : Number(value))

/**
 * The documents of one ICDAR 2013 Table Competition folder (tabula-java's copy: `NAME.pdf`,
 * `NAME-reg.xml` with each table region's box, `NAME-str.xml` with its cells by start and end row
 * and column). A table over two pages is two regions. Ground truths without their PDF are left out.
 */
export async function icdarDocuments(folder: string): Promise<TruthDocument[]> {
  const names = (await readdir(folder))
    .filter((file) => file.endsWith('-str.xml'))
    .map((file) => file.slice(0, -8))
  const documents: TruthDocument[] = []
  for (const name of names.sort()) {
    // tabula-java's copy has a few ground truths (eu-009b, us-011b, …) without their PDF.
    const pdf = join(folder, `${name}.pdf`)
    if (
      !(await access(pdf).then(
        () => true,
        () => false,
      ))
    )
      continue
    const structure = parser.parse(await readFile(join(folder, `${name}-str.xml`), 'utf8'))
    const regionsXml = parser.parse(await readFile(join(folder, `${name}-reg.xml`), 'utf8'))
    const boxes = new Map<string, TruthRegion['box']>()
    for (const table of (regionsXml.document?.table ?? []) as XmlTable[])
      for (const region of table.region ?? []) {
        const box = region['bounding-box']
        if (box)
          boxes.set(`${table.id}/${region.id}`, {
            x1: number(box.x1),
            y1: number(box.y1),
            x2: number(box.x2),
            y2: number(box.y2),
          })
      }
    const regions: TruthRegion[] = []
    for (const table of (structure.document?.table ?? []) as XmlTable[])
      for (const region of table.region ?? []) {
        const box = boxes.get(`${table.id}/${region.id}`) ?? null
        regions.push({
          table: number(table.id),
          page: number(region.page, 1),
          box,
          cells: (region.cell ?? []).map((cell) => {
            const row = number(cell['start-row'])
            const column = number(cell['start-col'])
            return {
              row,
              column,
              rowSpan: number(cell['end-row'], row) - row + 1,
              columnSpan: number(cell['end-col'], column) - column + 1,
              text: String(cell.content ?? ''),
            }
          }),
        })
      }
    documents.push({ name, pdf, regions })
  }
  return documents
}
