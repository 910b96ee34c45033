import { DocumentParseError, type ParsedSection } from './parsed-section.ts'
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

  constructor(private readonly filename: string) {}

  openParent(heading: string) {
    this.closeParent()
    const anchor = this.anchor(slugify(heading))
    this.current = { sourceId: `${this.filename}#${anchor}`, heading, units: [] }
  }

  openChild(headingText: string) {
    this.closeUnit()
    this.unit.push(headingText)
  }

  addBlock(text: string) {
    const trimmed = text.trim()
    if (!trimmed) return
    // Text before the first heading belongs to a section named after the file itself.
    this.current ??= { sourceId: this.filename, heading: null, units: [] }
    this.unit.push(trimmed)
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
    else if (this.current?.heading) this.bareHeadings.push(this.current.heading)
    this.current = undefined
  }
}
