import * as cheerio from 'cheerio'
import type { AnyNode, Element } from 'domhandler'
import { decodeText } from './decode-text.ts'
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

/**
 * Sections by heading like Markdown: h1/h2 open a parent section, h3–h6 a child unit. Scripts,
 * styles, navigation and footers are dropped; tables become `a | b` rows, code stays verbatim.
 */
export function parseHtmlText(html: string, filename: string) {
  const $ = cheerio.load(html)
  $(STRIPPED).remove()
  const builder = new SectionBuilder(filename)
  const walk = (node: AnyNode) => {
    if (node.type === 'text') {
      builder.addBlock(node.data.replace(/\s+/g, ' '))
      return
    }
    if (node.type !== 'tag') return
    const name = node.name.toLowerCase()
    const heading = /^h([1-6])$/.exec(name)
    if (heading) {
      const title = $(node).text().replace(/\s+/g, ' ').trim()
      if (!title) return
      if (Number(heading[1]) <= 2) builder.openParent(title)
      else builder.openChild(title)
      return
    }
    if (name === 'table') return builder.addBlock(tableText($, node))
    if (name === 'pre') return builder.addBlock($(node).text())
    if (WHOLE_BLOCKS.has(name)) return builder.addBlock($(node).text().replace(/\s+/g, ' '))
    for (const child of node.children) walk(child)
  }
  const body = $('body')[0] ?? $.root()[0]
  if (body) for (const child of body.children) walk(child)
  return builder.finish()
}

export function parseHtml(data: Uint8Array, filename: string) {
  return parseHtmlText(decodeText(data, 'HTML'), filename)
}
