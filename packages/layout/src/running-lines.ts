import type { TextLine } from './text-lines.ts'

/** The top and bottom of a page where running headers, footers and page numbers stand. */
const MARGIN_SHARE = 0.12
/** Points within which a running line stands at the same height from page to page. */
const SAME_HEIGHT = 3

/** A line that is only a page number: 12, - 12 -, 12 / 40, Page 12, p. 12, 12ページ, ii. */
const PAGE_NUMBER =
  /^(?:[-–—]\s*)?(?:page\s*|p\.\s*|ページ\s*)?(\d{1,4}|[ivxlc]{1,6})(?:\s*(?:\/|of)\s*\d{1,4})?(?:\s*ページ)?(?:\s*[-–—])?$/i

const ROMAN: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100 }

/** The number a page-number line says (roman numerals too), or null. */
function pageNumberOf(text: string): number | null {
  const match = PAGE_NUMBER.exec(text.trim())
  const value = match?.[1]?.toLowerCase()
  if (!value) return null
  if (/^\d+$/.test(value)) return Number(value)
  let total = 0
  for (let i = 0; i < value.length; i++) {
    const here = ROMAN[value[i] as string] ?? 0
    const next = ROMAN[value[i + 1] as string] ?? 0
    total += here < next ? -here : here
  }
  return total
}

/** A line's text with its numbers made alike: "Chapter 3 — page 12" and "Chapter 3 — page 13" are one. */
const shapeOf = (text: string) =>
  text
    .replace(/[0-9０-９]+/g, '#')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()

export interface PageLines {
  page: number
  height: number
  lines: TextLine[]
}

/**
 * What running lines were found on earlier pages of the same document (a document is laid out in
 * batches of pages): a footer seen on pages 1–25 is known on page 26 alone.
 */
export interface RunningMemory {
  /** Shapes at a height: `top|# free culture|541`. */
  shapes: Set<string>
  /** Page numbers' offsets from the page's own number, at a height: `bottom|-14|541`. */
  numbers: Set<string>
}

export const newRunningMemory = (): RunningMemory => ({ shapes: new Set(), numbers: new Set() })

/**
 * The lines of each page that run on every page rather than belong to it, in the page's top or
 * bottom MARGIN_SHARE: a text of the same shape (numbers aside) at the same height on several
 * pages (three, or two of a short document: a book's left and right pages carry different ones),
 * and a page number — the page's own, or a number at the same height on two pages or more, as far
 * from each page's own number (so a figure's axis label or a reference number in the margin is
 * kept), or a text
 * carrying such a number (a header with the page number in it). Returns, per
 * page, the set of its lines to leave out; `memory` carries what was found to later batches.
 */
export function runningLines(pages: PageLines[], memory = newRunningMemory()): Map<number, Set<TextLine>> {
  const found = new Map<number, Set<TextLine>>(pages.map((page) => [page.page, new Set()]))
  const inMargin = (line: TextLine, height: number) =>
    line.y + line.height <= height * MARGIN_SHARE || line.y >= height * (1 - MARGIN_SHARE)
  const band = (line: TextLine, height: number) => (line.y < height / 2 ? 'top' : 'bottom')
  const at = (line: TextLine) => Math.round(line.y / SAME_HEIGHT)
  // Keys at a height, with the neighbouring heights, so 541.4 and 541.6 meet.
  const keysOf = (prefix: string, line: TextLine) =>
    [at(line) - 1, at(line), at(line) + 1].map((y) => `${prefix}|${y}`)
  const shapeKey = (line: TextLine, height: number) => `${band(line, height)}|${shapeOf(line.text)}`
  const numberKey = (line: TextLine, page: number, height: number) => {
    const value = pageNumberOf(line.text)
    return value === null ? null : `${band(line, height)}|${value - page}`
  }
  const shapePages = new Map<string, Set<number>>()
  const numberPages = new Map<string, Set<number>>()
  const count = (map: Map<string, Set<number>>, keys: string[], page: number) => {
    for (const key of keys) map.set(key, (map.get(key) ?? new Set()).add(page))
  }
  for (const { page, height, lines } of pages)
    for (const line of lines) {
      if (!inMargin(line, height)) continue
      count(shapePages, keysOf(shapeKey(line, height), line), page)
      const number = numberKey(line, page, height)
      if (number) count(numberPages, keysOf(number, line), page)
    }
  const repeated = pages.length <= 4 ? 2 : 3
  // A header that carries the page number ("18 FREE CULTURE", "“PIRACY” 19"): its number as far
  // from the page's own as the page numbers found.
  const offsets = new Set(
    [...numberPages]
      .filter(([, seen]) => seen.size >= 2)
      .map(([key]) => key.split('|').slice(0, 2).join('|')),
  )
  for (const key of memory.numbers) offsets.add(key.split('|').slice(0, 2).join('|'))
  const carriesNumber = (line: TextLine, page: number, height: number) =>
    [...line.text.matchAll(/\d{1,4}/g)].some((match) =>
      offsets.has(`${band(line, height)}|${Number(match[0]) - page}`),
    )
  const exact = (prefix: string, line: TextLine) => `${prefix}|${at(line)}`
  for (const { page, height, lines } of pages)
    for (const line of lines) {
      if (!inMargin(line, height)) continue
      const shape = exact(shapeKey(line, height), line)
      const numberPrefix = numberKey(line, page, height)
      const number = numberPrefix ? exact(numberPrefix, line) : null
      const runs =
        memory.shapes.has(shape) ||
        (shapePages.get(shape)?.size ?? 0) >= repeated ||
        (number !== null &&
          (memory.numbers.has(number) ||
            (numberPages.get(number)?.size ?? 0) >= 2 ||
            // A page's own number at its foot, even on a document of one page.
            pageNumberOf(line.text) === page)) ||
        carriesNumber(line, page, height)
      if (!runs) continue
      found.get(page)?.add(line)
      for (const key of keysOf(shapeKey(line, height), line)) memory.shapes.add(key)
      if (numberPrefix) for (const key of keysOf(numberPrefix, line)) memory.numbers.add(key)
    }
  return found
}
