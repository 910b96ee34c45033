import { posix } from 'node:path'
import { XMLParser } from 'fast-xml-parser'
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from './parse-limits.ts'
import { DocumentParseError, type ParsedSection } from './parsed-section.ts'
import { tableRowText } from './table-rows.ts'
import { readZipEntries } from './zip-entries.ts'
import { checkUnzippedSize } from './zip-size.ts'

/** A node of fast-xml-parser's ordered output: `{tag: children, ':@': attributes}` or `{'#text': …}`. */
type XmlNode = Record<string, unknown>

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  processEntities: true,
  htmlEntities: false,
})

const tagOf = (node: XmlNode) => Object.keys(node).find((key) => key !== ':@') ?? ''
const childrenOf = (node: XmlNode) => (node[tagOf(node)] as XmlNode[] | undefined) ?? []
const attributesOf = (node: XmlNode) => (node[':@'] as Record<string, string> | undefined) ?? {}

/** The text of a node's runs (a:t), line breaks (a:br) kept. */
function textOf(nodes: XmlNode[]): string {
  let text = ''
  for (const node of nodes) {
    const tag = tagOf(node)
    if (tag === '#text') text += String(node['#text'] ?? '')
    else if (tag === 'a:br') text += '\n'
    else text += textOf(childrenOf(node))
  }
  return text
}

/** Whether a shape is the slide's title placeholder (p:nvSpPr/p:nvPr/p:ph type="title" or "ctrTitle"). */
function isTitle(shape: XmlNode): boolean {
  const child = (node: XmlNode | undefined, tag: string) =>
    node ? childrenOf(node).find((c) => tagOf(c) === tag) : undefined
  const placeholder = child(child(child(shape, 'p:nvSpPr'), 'p:nvPr'), 'p:ph')
  const type = placeholder ? attributesOf(placeholder).type : undefined
  return type === 'title' || type === 'ctrTitle'
}

interface SlideText {
  title: string
  paragraphs: string[]
  /** Its tables, row by row (cells' text). */
  tables: string[][][]
}

/** A slide's paragraphs in order, its title placeholder's text apart, and its tables by row. */
function slideText(xml: string): SlideText {
  const result: SlideText = { title: '', paragraphs: [], tables: [] }
  const visit = (nodes: XmlNode[], inTitle: boolean) => {
    for (const node of nodes) {
      const tag = tagOf(node)
      if (tag === 'p:sp') {
        visit(childrenOf(node), isTitle(node))
      } else if (tag === 'a:tbl') {
        const rows = childrenOf(node)
          .filter((child) => tagOf(child) === 'a:tr')
          .map((row) =>
            childrenOf(row)
              .filter((child) => tagOf(child) === 'a:tc')
              .map((cell) => textOf(childrenOf(cell)).trim()),
          )
          .filter((cells) => cells.some(Boolean))
        if (rows.length > 0) result.tables.push(rows)
      } else if (tag === 'a:p') {
        const text = textOf(childrenOf(node)).trim()
        if (!text) continue
        if (inTitle) result.title = result.title ? `${result.title} ${text}` : text
        else result.paragraphs.push(text)
      } else if (tag !== '#text' && tag !== '') visit(childrenOf(node), inTitle)
    }
  }
  visit(parser.parse(xml) as XmlNode[], false)
  return result
}

/** The relationships of a part: id → target path (resolved against the part's folder). */
function relationships(
  xml: string | undefined,
  partPath: string,
): Map<string, { target: string; type: string }> {
  const map = new Map<string, { target: string; type: string }>()
  if (!xml) return map
  for (const match of xml.matchAll(/<Relationship\b[^>]*>/g)) {
    const tag = match[0]
    const id = /\bId="([^"]+)"/.exec(tag)?.[1]
    const target = /\bTarget="([^"]+)"/.exec(tag)?.[1]
    const type = /\bType="([^"]+)"/.exec(tag)?.[1] ?? ''
    if (id && target)
      map.set(id, { target: posix.normalize(posix.join(posix.dirname(partPath), target)), type })
  }
  return map
}

const relsPath = (part: string) => posix.join(posix.dirname(part), '_rels', `${posix.basename(part)}.rels`)

/**
 * One section per slide in the deck's order, cited `deck.pptx:s3`: its title as the heading, then
 * its text (text boxes, placeholders, table rows as `cell | cell`) and its speaker notes.
 */
export async function* parsePptx(
  data: Uint8Array,
  filename: string,
  limits: Pick<ParseLimits, 'maxUnzippedBytes'> = DEFAULT_PARSE_LIMITS,
): AsyncGenerator<ParsedSection> {
  await checkUnzippedSize(data, 'PowerPoint (.pptx)', limits.maxUnzippedBytes)
  const entries = await readZipEntries(data, 'PowerPoint (.pptx)', (name) =>
    /^ppt\/.*\.(xml|rels)$/.test(name),
  )
  const read = (name: string) => entries.get(name)?.toString('utf8')
  const presentation = read('ppt/presentation.xml')
  if (!presentation) throw new DocumentParseError('not a PowerPoint presentation (no ppt/presentation.xml)')
  const presentationRels = relationships(read(relsPath('ppt/presentation.xml')), 'ppt/presentation.xml')
  const slideIds = [...presentation.matchAll(/<p:sldId\b[^>]*\br:id="([^"]+)"/g)].map(
    (match) => match[1] ?? '',
  )
  let number = 0
  for (const id of slideIds) {
    const part = presentationRels.get(id)?.target
    const xml = part ? read(part) : undefined
    if (!part || !xml) continue
    number += 1
    let slide: SlideText
    try {
      slide = slideText(xml)
    } catch (error) {
      throw new DocumentParseError(`slide ${number} is not readable XML: ${(error as Error).message}`)
    }
    const notesPart = [...relationships(read(relsPath(part)), part).values()].find((rel) =>
      rel.type.endsWith('/notesSlide'),
    )?.target
    const notesXml = notesPart ? read(notesPart) : undefined
    // The notes page repeats the slide image and number: only its text paragraphs are the notes.
    const notes = notesXml ? slideText(notesXml).paragraphs.filter((text) => !/^\d+$/.test(text)) : []
    const units = [
      ...(slide.title ? [slide.title] : []),
      ...slide.paragraphs,
      ...(notes.length > 0 ? [`ノート / Notes: ${notes.join('\n')}`] : []),
    ]
    if (units.length > 0) yield { sourceId: `${filename}:s${number}`, heading: slide.title || null, units }
    // A slide's table: its first row names the columns, each other row a section of its own.
    for (const [index, rows] of slide.tables.entries()) {
      const [header = [], ...body] = rows.length > 1 ? rows : [[], ...rows]
      let row = 0
      for (const cells of body) {
        const text = tableRowText(slide.title || null, header, cells)
        if (text === null) continue
        row += 1
        yield {
          sourceId: `${filename}:s${number}:t${index + 1}:r${row}`,
          heading: slide.title || null,
          units: [text],
          table: { id: `t${index + 1}`, row, columns: header.length > 0 ? header : null },
        }
      }
    }
  }
}
