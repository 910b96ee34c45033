import { DocumentParseError, type LineSpan, type ParsedSection } from './parsed-section.ts'
import { tableRowText } from './table-rows.ts'
import { slugify, uniqueAnchors } from './text-cleanup.ts'

/**
 * Collects headings and blocks in reading order into parent sections (source `name#anchor`) made
 * of child units (a subsection heading with its blocks). Shared by Markdown, HTML and DOCX.
 */
export class SectionBuilder {
  private readonly sections: ParsedSection[] = []
  private current: ParsedSection | undefined
  private unit: string[] = []
  private readonly anchor = uniqueAnchors()
  /** Headings with no text under them: a document of headings only is still read (as them). */
  private readonly bareHeadings: string[] = []
  /** The current subsection heading (h3 and below), for the heading path of a table's rows. */
  private child: string | null = null
  /** Tables so far under the current section, and their rows waiting for the section to close. */
  private tables = 0
  private tableRows: ParsedSection[] = []

  constructor(private readonly filename: string) {}

  openParent(heading: string) {
    this.closeParent()
    const anchor = this.anchor(slugify(heading))
    this.current = { sourceId: `${this.filename}#${anchor}`, heading, units: [] }
    this.child = null
  }

  openChild(headingText: string) {
    this.closeUnit()
    this.unit.push(headingText)
    this.child = headingText.replace(/^#+\s*/, '').trim()
  }

  /**
   * A table: each data row a section of its own (`name#anchor:t1:r4`), its text carrying the column
   * names and the caption (tableRowText), under the current heading path; the header rows (those
   * naming the columns) are not rows of their own.
   */
  addTable(table: {
    header: string[]
    rows: string[][]
    caption: string | null
    /** Each row's line in a text file (parallel to `rows`). */
    rowLines?: number[]
  }) {
    this.closeUnit()
    this.tables += 1
    const base = this.current?.sourceId ?? this.filename
    const heading = [this.current?.heading, this.child, table.caption].filter(Boolean).join(' › ') || null
    let row = 0
    for (const [index, cells] of table.rows.entries()) {
      const text = tableRowText(table.caption, table.header, cells)
      if (text === null) continue
      row += 1
      const line = table.rowLines?.[index]
      this.tableRows.push({
        ...(line !== undefined ? { lines: { from: line, to: line } } : {}),
        sourceId: `${base}:t${this.tables}:r${row}`,
        heading,
        units: [text],
        table: { id: `t${this.tables}`, row, columns: table.header.length > 0 ? table.header : null },
      })
    }
  }

  addBlock(text: string) {
    const trimmed = text.trim()
    if (!trimmed) return
    // Text before the first heading belongs to a section named after the file itself.
    this.current ??= { sourceId: this.filename, heading: null, units: [] }
    this.unit.push(trimmed)
  }

  /**
   * The lines of what was just added (a text file's heading or block): the current section then
   * spans them too.
   */
  span(lines: LineSpan) {
    if (!this.current) return
    const known = this.current.lines
    this.current.lines = known
      ? { from: Math.min(known.from, lines.from), to: Math.max(known.to, lines.to) }
      : { ...lines }
  }

  finish(): ParsedSection[] {
    this.closeParent()
    if (this.sections.length === 0 && this.bareHeadings.length > 0) {
      this.sections.push({ sourceId: this.filename, heading: null, units: [this.bareHeadings.join('\n')] })
    }
    if (this.sections.length === 0) throw new DocumentParseError('the document has no text')
    return this.sections
  }

  private closeUnit() {
    if (this.unit.length > 0) {
      this.current ??= { sourceId: this.filename, heading: null, units: [] }
      // The section's heading leads its first unit, so the chunks cut from it carry its words.
      const lead = this.current.units.length === 0 && this.current.heading ? [this.current.heading] : []
      this.current.units.push([...lead, ...this.unit].join('\n\n'))
    }
    this.unit = []
  }

  private closeParent() {
    this.closeUnit()
    if (this.current && this.current.units.length > 0) this.sections.push(this.current)
    else if (this.current?.heading && this.tableRows.length === 0)
      this.bareHeadings.push(this.current.heading)
    // A table's rows follow the text of the section they stand in.
    this.sections.push(...this.tableRows)
    this.tableRows = []
    this.tables = 0
    this.current = undefined
  }
}
