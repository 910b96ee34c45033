import { type Box, overlap, right, unionOf } from './geometry.ts'
import { bodySizeOf, headingOf, headingSizesOf } from './headings.ts'
import type { PageContent, TextRun } from './page-content.ts'
import { pageTables } from './page-tables.ts'
import { drawnInReadingOrder, xyCut } from './reading-order.ts'
import { newRunningMemory, type RunningMemory, runningLines } from './running-lines.ts'
import type { Table } from './table.ts'
import { joinLines } from './table-text.ts'
import { linesOf, type TextLine } from './text-lines.ts'
import { fromTurned, toTurned, verticalRuns } from './vertical-writing.ts'

/** A piece of a page in reading order: a heading, a paragraph, or a table. */
export type LayoutBlock =
  | { kind: 'heading'; text: string; level: number; box: Box }
  | { kind: 'paragraph'; text: string; box: Box }
  | { kind: 'table'; text: string; table: Table; box: Box }

export interface PageLayout {
  page: number
  width: number
  height: number
  blocks: LayoutBlock[]
  /** Running headers, footers and page numbers left out. */
  running: string[]
  /** Most of its text is set vertically (縦書き). */
  vertical: boolean
}

/** Lines of one frame (horizontal text, or vertical text turned a quarter) and where they came from. */
interface Framed {
  lines: TextLine[]
  runs: TextRun[]
  turned: boolean
}

/**
 * The pages' layout from their geometry: lines; running headers, footers and page numbers found
 * across the pages and left out; tables (drawn, then aligned); the rest in reading order (the
 * drawing order when it reads as a page does, else XY-cut), grouped into paragraphs and headings
 * by size, weight and numbering. Vertical text is read in columns, right to left. Pages given
 * together share their body size, heading sizes and running lines: give a document's pages (or a
 * batch of them) at once, and the same `running` memory to each batch of one document.
 */
export function layoutPages(pages: PageContent[], running: RunningMemory = newRunningMemory()): PageLayout[] {
  const framed = pages.map((page) => frames(page))
  const horizontal = framed.map((frame, i) => ({
    page: pages[i]?.page ?? i + 1,
    height: pages[i]?.height ?? 0,
    lines: frame.flatMap((f) => (f.turned ? [] : f.lines)),
  }))
  const dropped = runningLines(horizontal, running)
  const allLines = framed.flatMap((frame) => frame.flatMap((f) => f.lines))
  const bodySize = bodySizeOf(allLines)
  const headingSizes = headingSizesOf(allLines, bodySize)
  return pages.map((page, i) => {
    const leftOut = dropped.get(page.page) ?? new Set<TextLine>()
    const flat: LayoutBlock[] = []
    const turned: LayoutBlock[] = []
    let verticalChars = 0
    let allChars = 0
    for (const frame of framed[i] ?? []) {
      const lines = frame.lines.filter((line) => !leftOut.has(line))
      const chars = lines.reduce((n, line) => n + line.text.length, 0)
      allChars += chars
      if (frame.turned) verticalChars += chars
      const frameBlocks = frameLayout(page, frame, lines, { bodySize, headingSizes })
      if (frame.turned)
        turned.push(...frameBlocks.map((block) => ({ ...block, box: fromTurned(block.box, page.width) })))
      else flat.push(...frameBlocks)
    }
    return {
      page: page.page,
      width: page.width,
      height: page.height,
      blocks: withVertical(flat, turned),
      running: [...leftOut].map((line) => line.text),
      vertical: verticalChars * 2 > allChars,
    }
  })
}

/** Horizontal blocks above the vertical text first, then the vertical text, then the rest. */
function withVertical(flat: LayoutBlock[], turned: LayoutBlock[]): LayoutBlock[] {
  if (turned.length === 0) return flat
  const top = Math.min(...turned.map((block) => block.box.y))
  return [
    ...flat.filter((block) => block.box.y < top),
    ...turned,
    ...flat.filter((block) => block.box.y >= top),
  ]
}

/** A page's horizontal text, and its vertical text turned a quarter, each as lines. */
function frames(page: PageContent): Framed[] {
  const vertical = verticalRuns(page.runs)
  const flat = page.runs.filter((run) => !vertical.has(run))
  const turned = page.runs.filter((run) => vertical.has(run)).map((run) => toTurned(run, page.width))
  const out: Framed[] = [{ lines: linesOf(flat), runs: flat, turned: false }]
  if (turned.length > 0) out.push({ lines: linesOf(turned), runs: turned, turned: true })
  return out
}

/** One frame's tables and text blocks, in reading order. */
function frameLayout(
  page: PageContent,
  frame: Framed,
  lines: TextLine[],
  sizes: { bodySize: number; headingSizes: number[] },
): LayoutBlock[] {
  // Drawn tables only in the page's own frame (rulings are not turned).
  const found = pageTables(frame.runs, frame.turned ? [] : page.segments, lines)
  const inTables = new Set(found.flatMap((table) => table.lines))
  const rest = lines.filter((line) => !inTables.has(line))
  const tables = found.map(({ table, lines: tableLines }) => ({
    table,
    order:
      tableLines.length > 0 ? Math.min(...tableLines.map((line) => line.order)) : Number.MAX_SAFE_INTEGER,
  }))
  type Item = Box & { order: number; line?: TextLine; table?: Table }
  const items: Item[] = [
    ...rest.map((line) => ({ ...boxOf(line), order: line.order, line })),
    ...tables.map(({ table, order }) => ({ ...table.box, order, table })),
  ]
  const ordered = drawnInReadingOrder(items) ? [...items].sort((a, b) => a.order - b.order) : xyCut(items)
  const blocks: LayoutBlock[] = []
  let paragraph: TextLine[] = []
  const flush = () => {
    if (paragraph.length === 0) return
    blocks.push({
      kind: 'paragraph',
      text: joinLines(paragraph.map((line) => line.text)),
      box: unionOf(paragraph.map(boxOf)),
    })
    paragraph = []
  }
  for (const item of ordered) {
    if (item.table) {
      flush()
      blocks.push({ kind: 'table', text: tableText(item.table), table: item.table, box: item.table.box })
      continue
    }
    const line = item.line as TextLine
    const heading = headingOf(line, sizes)
    if (heading) {
      flush()
      blocks.push({ kind: 'heading', text: line.text, level: heading.level, box: boxOf(line) })
      continue
    }
    const last = paragraph.at(-1)
    if (last && !continues(last, line)) flush()
    paragraph.push(line)
  }
  flush()
  return blocks
}

const boxOf = (line: TextLine): Box => ({ x: line.x, y: line.y, width: line.width, height: line.height })

/** Whether a line goes on the paragraph the line before it is in: same size, same column, close below. */
function continues(before: TextLine, line: TextLine): boolean {
  if (Math.abs(before.fontSize - line.fontSize) > 0.6) return false
  if (overlap(before.x, right(before), line.x, right(line)) <= 0) return false
  const gap = line.y - (before.y + before.height)
  return gap >= -before.height * 0.5 && gap <= Math.max(before.height, line.height) * 0.9
}

/** A table as plain text, row by row (what a reader of the page sees, for the page's text). */
function tableText(table: Table): string {
  const rows = new Map<number, string[]>()
  for (const cell of [...table.cells].sort((a, b) => a.row - b.row || a.column - b.column))
    rows.set(cell.row, [...(rows.get(cell.row) ?? []), cell.text])
  return [...rows.values()].map((cells) => cells.join(' | ')).join('\n')
}
