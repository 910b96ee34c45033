/**
 * Aozora Bunko's text edition (https://www.aozora.gr.jp/annotation/), read as plain prose by a
 * documented rule set (no parser of the format is kept on npm that we would trust more):
 *
 * 1. The file is Shift_JIS; one that does not decode is skipped (and counted by the caller).
 * 2. The header — the title and author lines, and the 【テキスト中に現れる記号について】 block
 *    between its two rules of hyphens — is dropped, as is the footer from the line starting
 *    底本： (the source edition, the proofreaders, the licence notes) to the end.
 * 3. Ruby: ｜base《reading》 keeps the base; text《reading》 drops the reading.
 * 4. Annotations ［＃…］ (headings, emphasis, layout, input notes) are dropped; a character given
 *    only by an annotation (※［＃…］, a gaiji) is dropped with it.
 * 5. Lines are paragraphs: the full-width indent is trimmed, empty lines dropped.
 */
export function aozoraParagraphs(text: string): string[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n')
  const rules = lines.flatMap((line, index) => (/^-{20,}\s*$/.test(line) ? [index] : []))
  // The notation block sits between the first two rules; without it, the title and author (the
  // lines before the first blank one) are the header.
  const bodyStart =
    rules.length >= 2 && (rules[0] ?? 0) < 40
      ? (rules[1] ?? 0) + 1
      : lines.findIndex((line) => line.trim() === '') + 1
  const footer = lines.findIndex((line, index) => index >= bodyStart && /^底本[：:]/.test(line))
  return lines
    .slice(bodyStart, footer === -1 ? undefined : footer)
    .map((line) =>
      line
        .replace(/※［＃[^］]*］/g, '')
        .replace(/［＃[^］]*］/g, '')
        .replace(/｜([^《]*)《[^》]*》/g, '$1')
        .replace(/《[^》]*》/g, '')
        .replace(/^[\s　]+|[\s　]+$/g, ''),
    )
    .filter((line) => line.length > 0)
}

const shiftJis = new TextDecoder('shift_jis', { fatal: true })

/** A file's paragraphs, or null when it is not Shift_JIS text. */
export function readAozoraFile(bytes: Uint8Array): string[] | null {
  try {
    return aozoraParagraphs(shiftJis.decode(bytes))
  } catch {
    return null
  }
}
