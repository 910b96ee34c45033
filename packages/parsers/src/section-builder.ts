import { DocumentParseError, type LineSpan, type ParsedSection } from './parsed-section.ts'
import { tableRowText } from './table-rows.ts'
import { slugify, uniqueAnchors } from './text-cleanup.ts'

/**
 * Collects headings and blocks in reading order into sections (source `name#anchor`), one per
 * heading of any level, each with its heading path (`ペアリング › ペアリングできないとき`) and,
 * in a text file, its own lines — so two passages under different sub-headings never cite the
 * same section. Shared by Markdown and HTML.
 */
export class SectionBuilder {
  private readonly sections: ParsedSection[] = []
  private current: ParsedSection | undefined
  private unit: string[] = []
  private readonly anchor = uniqueAnchors()
  /** Headings with no text under them: a document of headings only is still read (as them). */
  private readonly bareHeadings: string[] = []
  /** The headings the current section stands under, by level (h1/h2 first), for its path. */
  private path: { level: number; title: string }[] = []
  /** Tables so far under the current section, and their rows waiting for the section to close. */
  private tables = 0
  private tableRows: ParsedSection[] = []

  constructor(private readonly filename: string) {}

  /** A top-level heading (h1, h2): a section of its own, its path starting again. */
  openParent(heading: string) {
    this.openSection(heading, 2)
  }

  /** A sub-heading (h3 to h6, `level`): a section of its own under the headings above it. */
  openChild(heading: string, level = 3) {
    this.openSection(heading.replace(/^#+\s*/, '').trim(), level)
  }

  private openSection(title: string, level: number) {
    this.closeParent()
    this.path = [...this.path.filter((above) => above.level < level && level > 2), { level, title }]
    const anchor = this.anchor(slugify(title))
    const heading = this.path.map((above) => above.title).join(' › ')
    this.current = { sourceId: `${this.filename}#${anchor}`, heading, units: [] }
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
    const heading = [this.current?.heading, table.caption].filter(Boolean).join(' › ') || null
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
