import * as cheerio from 'cheerio'
import type { AnyNode, Element } from 'domhandler'
import { Tokenizer } from 'htmlparser2'
import { decodeText } from './decode-text.ts'
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from './parse-limits.ts'
import { DocumentParseError } from './parsed-section.ts'
import { SectionBuilder } from './section-builder.ts'

// Never content: scripts, styles and site chrome.
const STRIPPED = 'script, style, noscript, template, nav, iframe, svg, form, button, header > nav, footer'
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

function tableText($: cheerio.CheerioAPI, table: Element): string {
  return $(table)
    .find('tr')
    .toArray()
    .map((row) =>
      $(row)
        .find('th, td')
        .toArray()
        .map((cell) => $(cell).text().replace(/\s+/g, ' ').trim())
        .join(' | '),
    )
    .join('\n')
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
 * Sections by heading like Markdown: h1/h2 open a parent section, h3–h6 a child unit. Scripts,
 * styles, navigation and footers are dropped; tables become `a | b` rows, code stays verbatim.
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
      else builder.openChild(title)
      return []
    }
    if (name === 'table') builder.addBlock(tableText($, node))
    else if (name === 'pre') builder.addBlock($(node).text())
    else if (WHOLE_BLOCKS.has(name)) builder.addBlock($(node).text().replace(/\s+/g, ' '))
    else return node.children
    return []
  }
  const body = $('body')[0] ?? $.root()[0]
  const pending: AnyNode[] = body ? [...body.children].reverse() : []
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
