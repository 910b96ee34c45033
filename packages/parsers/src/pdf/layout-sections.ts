import { type Box, type PageLayout, roundBox, type Table, tableGrid, unionOf } from '@rag/layout'
import type { ParsedSection, Region } from '../parsed-section.ts'
import { HEADER_JOINER, tableRowText } from '../table-rows.ts'
import { cleanPageText } from '../text-cleanup.ts'

/** What carries from one batch of pages to the next: the headings in force, the table last seen. */
export interface LayoutState {
  headings: { level: number; text: string }[]
  /** The last block of the last page was this table: a table at the next page's top continues it. */
  openTable: { columns: number; header: string[]; caption: string | null; id: string; rows: number } | null
}

export const newLayoutState = (): LayoutState => ({ headings: [], openTable: null })

/** A heading path as it is shown and indexed: 第3章 在宅勤務 › 3.1 申請の手順. */
export const HEADING_JOINER = ' › '

const regionOf = (page: number, box: Box): Region => ({ page, ...roundBox(box) })

/**
 * Sections of laid-out pages: each page's text under the heading in force (a new section where a
 * heading starts, its heading path from the headings above it, across pages), each paragraph a unit
 * with the place it stands; each table row a section of its own, cited as `name.pdf:p3:t1:r4`, whose
 * text carries the table's caption and the column headers (「料金プラン一覧 — プラン: エンタープライズ
 * / 月額料金: 48,000円」). A table at the top of a page that continues the previous page's (same
 * columns, no header of its own) keeps that one's header and caption.
 */
export function layoutSections(layouts: PageLayout[], filename: string, state: LayoutState): ParsedSection[] {
  const sections: ParsedSection[] = []
  for (const layout of layouts) {
    const sourceId = `${filename}:p${layout.page}`
    let units: string[] = []
    let regions: Region[][] = []
    const flush = () => {
      if (units.length > 0) sections.push({ sourceId, heading: headingPath(state), units, regions })
      units = []
      regions = []
    }
    let tables = 0
    layout.blocks.forEach((block, index) => {
      if (block.kind === 'heading') {
        flush()
        while ((state.headings.at(-1)?.level ?? 0) >= block.level) state.headings.pop()
        state.headings.push({ level: block.level, text: block.text })
        units.push(block.text)
        regions.push([regionOf(layout.page, block.box)])
        state.openTable = null
        return
      }
      if (block.kind === 'paragraph') {
        const text = cleanPageText(block.text)
        if (text) {
          units.push(text)
          regions.push([regionOf(layout.page, block.box)])
        }
        state.openTable = null
        return
      }
      flush()
      tables += 1
      const previous = layout.blocks[index - 1]
      const caption =
        previous &&
        (previous.kind === 'heading' || (previous.kind === 'paragraph' && [...previous.text].length <= 40))
          ? previous.text
          : null
      sections.push(
        ...tableSections(
          block.table,
          { page: layout.page, filename, index: tables, caption, first: index === 0 },
          state,
        ),
      )
    })
    flush()
  }
  return sections
}

const headingPath = (state: LayoutState) =>
  state.headings.length > 0 ? state.headings.map((heading) => heading.text).join(HEADING_JOINER) : null

function tableSections(
  table: Table,
  {
    page,
    filename,
    index,
    caption,
    first,
  }: { page: number; filename: string; index: number; caption: string | null; first: boolean },
  state: LayoutState,
): ParsedSection[] {
  const grid = tableGrid(table)
  const own = headerOf(table)
  // A table that opens a page goes on from the one that closed the page before when it has its
  // columns and either no header or the same one repeated (what a producer prints over a page
  // break): its caption and row numbers go on too, and a repeated header is not a row.
  const open = state.openTable
  const continued =
    first &&
    open !== null &&
    open.columns === table.columns &&
    (table.headerRows === 0 || own.join('\t') === open.header.join('\t'))
      ? open
      : null
  const header = continued?.header ?? own
  const id = continued?.id ?? `t${index}`
  const title = continued?.caption ?? caption
  let numbered = continued?.rows ?? 0
  const sections: ParsedSection[] = []
  for (let r = table.headerRows; r < table.rows; r++) {
    const cells = grid[r] ?? []
    const text = tableRowText(title, header, cells)
    if (text === null) continue
    numbered += 1
    const rowBoxes = table.cells.filter((cell) => cell.row === r).map((cell) => cell.box)
    sections.push({
      sourceId: `${filename}:p${page}:${id}:r${numbered}`,
      // The caption is in the path unless it is the heading the table stands under already.
      heading:
        [headingPath(state), title === state.headings.at(-1)?.text ? null : title]
          .filter(Boolean)
          .join(HEADING_JOINER) || null,
      units: [text],
      regions: [[regionOf(page, rowBoxes.length > 0 ? unionOf(rowBoxes) : table.box)]],
      table: { id, row: numbered, columns: header.length > 0 ? header : null },
    })
  }
  state.openTable = { columns: table.columns, header, caption: title, id, rows: numbered }
  return sections
}

/** The column names: the header rows' cells, a spanning header cell naming every column it spans. */
function headerOf(table: Table): string[] {
  const names = Array.from({ length: table.columns }, () => [] as string[])
  for (const cell of table.cells)
    if (cell.row < table.headerRows)
      for (let c = cell.column; c < cell.column + cell.columnSpan; c++) names[c]?.push(cell.text)
  return names.map((parts) => parts.join(HEADER_JOINER))
}
