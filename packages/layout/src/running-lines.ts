import type { TextLine } from './text-lines.ts'

/** The top and bottom of a page where running headers, footers and page numbers stand. */
const MARGIN_SHARE = 0.12

/** A line that is only a page number: 12, - 12 -, 12 / 40, Page 12, p. 12, 12ページ, ii. */
const PAGE_NUMBER =
  /^(?:[-–—]\s*)?(?:page\s*|p\.\s*|ページ\s*)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s*(?:\/|of)\s*\d{1,4})?(?:\s*ページ)?(?:\s*[-–—])?$/i

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
 * The lines of each page that run on every page rather than belong to it: in the page's top or
 * bottom MARGIN_SHARE, a page number, or a text of the same shape (numbers aside) at about the same
 * height on at least half the pages (and at least 2). Returns, per
 * page, the set of its lines to leave out.
 */
export function runningLines(pages: PageLines[]): Map<number, Set<TextLine>> {
  const found = new Map<number, Set<TextLine>>(pages.map((page) => [page.page, new Set()]))
  const inMargin = (line: TextLine, height: number) =>
    line.y + line.height <= height * MARGIN_SHARE || line.y >= height * (1 - MARGIN_SHARE)
  // How many pages carry a margin line of each shape (by band: top or bottom).
  const pagesWith = new Map<string, Set<number>>()
  const keyOf = (line: TextLine, height: number) =>
    `${line.y < height / 2 ? 'top' : 'bottom'}|${shapeOf(line.text)}`
  for (const { page, height, lines } of pages)
    for (const line of lines) {
      if (!inMargin(line, height)) continue
      const key = keyOf(line, height)
      const seen = pagesWith.get(key) ?? new Set()
      seen.add(page)
      pagesWith.set(key, seen)
    }
  const repeated = Math.max(2, Math.ceil(pages.length / 2))
  for (const { page, height, lines } of pages)
    for (const line of lines) {
      if (!inMargin(line, height)) continue
      const numberOnly = PAGE_NUMBER.test(line.text.trim()) && pages.length >= 2
      const runs = (pagesWith.get(keyOf(line, height))?.size ?? 0) >= repeated
      if (numberOnly || runs) found.get(page)?.add(line)
    }
  return found
}
