import * as cheerio from 'cheerio'
import type { AnyNode, Element } from 'domhandler'
import { Tokenizer } from 'htmlparser2'
import { decodeText } from './decode-text.ts'
import { mainContent } from './html-main-content.ts'
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from './parse-limits.ts'
import { DocumentParseError } from './parsed-section.ts'
import { SectionBuilder } from './section-builder.ts'
import { columnNames } from './table-rows.ts'

// Never content: scripts, styles and site chrome.
const STRIPPED = [
  'script, style, noscript, template, nav, iframe, svg, form, button, header > nav, footer',
  '[role="navigation"], [role="banner"], [role="contentinfo"], [role="search"], [hidden], [aria-hidden="true"]',
].join(', ')
// Blocks whose whole text is one piece: descending into them would split a table or a code listing.
const WHOLE_BLOCKS = new Set([
  'p',
  'li',
  'pre',
  'table',
  'blockquote',
  'dt',
  'dd',
  'figcaption',
  'caption',
  'address',
])

/** Rows of cells with their spans as a grid: a cell spanning rows or columns repeated in each it covers. */
function spreadSpans(rows: { text: string; span: number; rowSpan: number }[][]): string[][] {
  const below = new Map<number, { text: string; left: number }>()
  return rows.map((cells) => {
    const out: string[] = []
    const take = () => {
      for (let carried = below.get(out.length); carried; carried = below.get(out.length)) {
        out.push(carried.text)
        if (--carried.left === 0) below.delete(out.length - 1)
      }
    }
    for (const cell of cells) {
      take()
      for (let i = 0; i < cell.span; i++) {
        if (cell.rowSpan > 1) below.set(out.length, { text: cell.text, left: cell.rowSpan - 1 })
        out.push(cell.text)
      }
    }
    take()
    return out
  })
}

/**
 * A table from its markup: its rows (a cell spanning rows or columns repeated in each), the rows naming
 * the columns (those in <thead>, else the first rows made only of <th>, else a first row of short
 * labels over rows of values), and its <caption>. Nested tables are read as their cells' text.
 */
function tableOf($: cheerio.CheerioAPI, table: Element) {
  const rows = $(table)
    .find('tr')
    .toArray()
    .filter((row) => $(row).closest('table')[0] === table)
    .map((row) => {
      const cells = $(row)
        .children('th, td')
        .toArray()
        .map((cell) => ({
          text: $(cell).text().replace(/\s+/g, ' ').trim(),
          span: Math.min(50, Math.max(1, Number($(cell).attr('colspan')) || 1)),
          rowSpan: Math.min(1000, Math.max(1, Number($(cell).attr('rowspan')) || 1)),
          heading: cell.tagName.toLowerCase() === 'th',
        }))
      return { cells, inHead: $(row).closest('thead').length > 0 }
    })
    .filter((row) => row.cells.length > 0)
  const grid = spreadSpans(rows.map((row) => row.cells))
  const columns = Math.max(0, ...grid.map((row) => row.length))
  let headerRows = rows.filter((row) => row.inHead).length
  if (headerRows === 0)
    while (headerRows < rows.length - 1 && rows[headerRows]?.cells.every((cell) => cell.heading)) headerRows++
  if (headerRows === 0 && rows.length > 1) {
    const first = rows[0]?.cells ?? []
    const labels = first.every(
      (cell) => cell.text !== '' && [...cell.text].length <= 30 && !/^[\d\s.,%¥$€円+\-−]+$/u.test(cell.text),
    )
    if (labels && first.length >= 2) headerRows = 1
  }
  return {
    header: columnNames(
      grid.slice(0, headerRows).map((cells) => ({ cells: cells.map((text) => ({ text, span: 1 })) })),
      columns,
    ),
    rows: grid.slice(headerRows),
    caption: $(table).children('caption').first().text().replace(/\s+/g, ' ').trim() || null,
  }
}

// Elements that never nest (void) or whose end tag may be left out (a list of unclosed <li>):
// not counted, so sloppy but ordinary HTML is not mistaken for deep nesting.
const UNCOUNTED = new Set(
  'area base br col embed hr img input link meta source track wbr p li dt dd tr td th thead tbody tfoot option optgroup colgroup rt rp'.split(
    ' ',
  ),
)

/**
 * Refuses HTML nested deeper than the limit, found by one linear pass of the tokenizer before any
 * tree is built (building the tree, and the tree builders' own stack handling, are what go
 * quadratic or overflow on 100,000 nested elements).
 */
function checkNesting(html: string, maxDepth: number) {
  let depth = 0
  let deepest = 0
  // `<x/>` (XHTML style) opens and closes at once.
  let lastOpenCounted = false
  const tagName = (start: number, end: number) => html.slice(start, end).toLowerCase()
  const ignore = () => undefined
  const tokenizer = new Tokenizer(
    {},
    {
      onopentagname(start, end) {
        lastOpenCounted = !UNCOUNTED.has(tagName(start, end))
        if (!lastOpenCounted) return
        depth += 1
        if (depth > deepest) deepest = depth
      },
      onclosetag(start, end) {
        if (!UNCOUNTED.has(tagName(start, end)) && depth > 0) depth -= 1
      },
      onselfclosingtag() {
        if (lastOpenCounted && depth > 0) depth -= 1
      },
      onattribdata: ignore,
      onattribentity: ignore,
      onattribend: ignore,
      onattribname: ignore,
      oncdata: ignore,
      oncomment: ignore,
      ondeclaration: ignore,
      onend: ignore,
      onopentagend: ignore,
      onprocessinginstruction: ignore,
      ontext: ignore,
      ontextentity: ignore,
    },
  )
  tokenizer.write(html)
  tokenizer.end()
  if (deepest > maxDepth) {
    throw new DocumentParseError(
      `the HTML nests elements ${deepest} deep; at most ${maxDepth} are read (HTML_MAX_DEPTH)`,
    )
  }
}

/**
 * Sections by heading like Markdown: h1/h2 open a parent section, h3–h6 a child unit. Only the
 * main content is read (mainContent); scripts, styles, navigation and footers are dropped; each table row becomes a section of its own with
 * its column names (SectionBuilder.addTable), code stays verbatim.
 * The tree is walked with a stack of its own, not by recursion.
 */
export function parseHtmlText(
  html: string,
  filename: string,
  { maxHtmlDepth }: Pick<ParseLimits, 'maxHtmlDepth'> = DEFAULT_PARSE_LIMITS,
) {
  checkNesting(html, maxHtmlDepth)
  const $ = cheerio.load(html)
  $(STRIPPED).remove()
  const builder = new SectionBuilder(filename)
  const visit = (node: AnyNode): AnyNode[] => {
    if (node.type === 'text') {
      builder.addBlock(node.data.replace(/\s+/g, ' '))
      return []
    }
    if (node.type !== 'tag') return []
    const name = node.name.toLowerCase()
    const heading = /^h([1-6])$/.exec(name)
    if (heading) {
      const title = $(node).text().replace(/\s+/g, ' ').trim()
      if (!title) return []
      if (Number(heading[1]) <= 2) builder.openParent(title)
      else builder.openChild(title, Number(heading[1]))
      return []
    }
    if (name === 'table') builder.addTable(tableOf($, node))
    else if (name === 'pre') builder.addBlock($(node).text())
    else if (WHOLE_BLOCKS.has(name)) builder.addBlock($(node).text().replace(/\s+/g, ' '))
    else return node.children
    return []
  }
  const root = mainContent($) as (AnyNode & { children?: AnyNode[] }) | undefined
  const pending: AnyNode[] = root?.children ? [...root.children].reverse() : []
  for (let node = pending.pop(); node; node = pending.pop()) {
    const children = visit(node)
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i] as AnyNode)
  }
  return builder.finish()
}

export function parseHtml(
  data: Uint8Array,
  filename: string,
  limits: Pick<ParseLimits, 'maxHtmlDepth'> = DEFAULT_PARSE_LIMITS,
) {
  return parseHtmlText(decodeText(data, 'HTML'), filename, limits)
}
