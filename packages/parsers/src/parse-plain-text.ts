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
  let current: { line: number; paragraphs: string[]; size: number } | undefined
  let paragraph: string[] = []
  let paragraphLine = 1
  const flushParagraph = () => {
    const text = paragraph.join('\n').trim()
    paragraph = []
    if (!text) return
    if (current && current.size + text.length > maxChars) {
      sections.push({ sourceId: `${filename}:L${current.line}`, heading: null, units: current.paragraphs })
      current = undefined
    }
    current ??= { line: paragraphLine, paragraphs: [], size: 0 }
    current.paragraphs.push(text)
    current.size += text.length
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
  if (current)
    sections.push({ sourceId: `${filename}:L${current.line}`, heading: null, units: current.paragraphs })
  if (sections.length === 0) throw new DocumentParseError('the document has no text')
  return sections
}
