import type { ParsedSection } from './parsed-section.ts'

// NUL and the other C0/C1 controls (tab, line feed and carriage return kept), and the two Unicode
// noncharacters U+FFFE/U+FFFF: extracted text holds them now and then (PDF text layers, Word
// fields), and Postgres refuses NUL in text and jsonb outright.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these characters are what it removes
const INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]/g

/** Text safe to store: invalid characters dropped, unpaired surrogates replaced by U+FFFD. */
export function cleanExtractedText(text: string): string {
  return text.replace(INVALID, '').toWellFormed()
}

/** A section with its heading and units cleaned; null when nothing readable is left in it. */
export function cleanSection(section: ParsedSection): ParsedSection | null {
  const units = section.units.map(cleanExtractedText).filter((unit) => unit.trim() !== '')
  if (units.length === 0 && section.ocrPage === undefined && section.leftOut === undefined) return null
  const heading = section.heading === null ? null : cleanExtractedText(section.heading)
  return { ...section, sourceId: cleanExtractedText(section.sourceId), heading, units }
}
