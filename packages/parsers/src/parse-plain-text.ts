import { decodeText } from './decode-text.ts'
import { DocumentParseError, type ParsedSection } from './parsed-section.ts'

/**
 * Paragraphs (blank-line separated) grouped into sections of at most maxChars; source
 * `name.txt:L12` = the line the section starts on.
 */
export function parsePlainText(
  data: Uint8Array,
  filename: string,
  { maxChars = 2000 } = {},
): ParsedSection[] {
  const lines = decodeText(data, 'plain').replace(/\r\n?/g, '\n').split('\n')
  const sections: ParsedSection[] = []
  let current: { line: number; last: number; paragraphs: string[]; size: number } | undefined
  let paragraph: string[] = []
  let paragraphLine = 1
  const section = (at: NonNullable<typeof current>): ParsedSection => ({
    sourceId: `${filename}:L${at.line}`,
    heading: null,
    units: at.paragraphs,
    lines: { from: at.line, to: at.last },
  })
  const flushParagraph = () => {
    const text = paragraph.join('\n').trim()
    const last = paragraphLine + paragraph.length - 1
    paragraph = []
    if (!text) return
    if (current && current.size + text.length > maxChars) {
      sections.push(section(current))
      current = undefined
    }
    current ??= { line: paragraphLine, last, paragraphs: [], size: 0 }
    current.paragraphs.push(text)
    current.size += text.length
    current.last = last
  }
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') {
      flushParagraph()
      continue
    }
    if (paragraph.length === 0) paragraphLine = index + 1
    paragraph.push(line)
  }
  flushParagraph()
  if (current) sections.push(section(current))
  if (sections.length === 0) throw new DocumentParseError('the document has no text')
  return sections
}
