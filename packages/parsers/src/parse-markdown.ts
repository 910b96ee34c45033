import type { RootContent } from 'mdast'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { gfmFromMarkdown } from 'mdast-util-gfm'
import { toString as nodeText } from 'mdast-util-to-string'
import { gfm } from 'micromark-extension-gfm'
import { decodeText } from './decode-text.ts'
import { SectionBuilder } from './section-builder.ts'

/**
 * Sections by heading, one per heading of any level with its heading path (h1/h2 start the path). Each
 * block keeps its source text, so code blocks stay whole and verbatim; each table row becomes a
 * section of its own with its column names. Each section knows its lines (a citation names them).
 */
export function parseMarkdown(data: Uint8Array, filename: string) {
  const markdown = decodeText(data, 'Markdown')
  const tree = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] })
  const builder = new SectionBuilder(filename)
  const source = (node: RootContent) =>
    markdown.slice(node.position?.start.offset ?? 0, node.position?.end.offset ?? 0).trim()
  for (const node of tree.children) {
    const lines = node.position && { from: node.position.start.line, to: node.position.end.line }
    if (node.type === 'heading') {
      const title = nodeText(node).trim()
      if (node.depth <= 2) builder.openParent(title)
      else builder.openChild(title, node.depth)
    } else if (node.type === 'table') {
      // GFM: the first row names the columns; each other row becomes a section of its own.
      const [header, ...rows] = node.children.map((row) => row.children.map((cell) => nodeText(cell).trim()))
      const rowLines = node.children.slice(1).map((row) => row.position?.start.line ?? 0)
      builder.addTable({ header: header ?? [], rows, caption: null, rowLines })
      continue
    } else if (node.type !== 'definition' && node.type !== 'html') {
      builder.addBlock(source(node))
    }
    if (lines) builder.span(lines)
  }
  return builder.finish()
}
