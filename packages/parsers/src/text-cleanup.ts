const LIGATURES: Record<string, string> = {
  ﬀ: 'ff',
  ﬁ: 'fi',
  ﬂ: 'fl',
  ﬃ: 'ffi',
  ﬄ: 'ffl',
  ﬅ: 'st',
  ﬆ: 'st',
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー、・「」（）]/u
const SENTENCE_END = /[。．！？!?:：」』）)]$/u

/**
 * A line that is nearly as long as the page's longest and breaks between two Japanese characters
 * was wrapped by the layout: join it without a space. Short lines (titles, list items) and lines
 * ending a sentence keep their break.
 */
function joinWrappedJapaneseLines(text: string): string {
  const lines = text.split('\n')
  const longest = Math.max(...lines.map((line) => line.trim().length))
  let joined = lines[0] ?? ''
  for (let i = 1; i < lines.length; i++) {
    const previous = (lines[i - 1] ?? '').trim()
    const next = lines[i] ?? ''
    const wrapped =
      previous.length >= longest * 0.8 &&
      !SENTENCE_END.test(previous) &&
      CJK.test(previous.at(-1) ?? '') &&
      CJK.test(next.trim().at(0) ?? '')
    joined += wrapped ? next.trim() : `\n${next}`
  }
  return joined
}

/**
 * Text extracted from a PDF page: ligatures spelled out, words hyphenated across lines joined,
 * Japanese lines joined without a space (a line break inside a sentence is layout, not content),
 * runs of spaces collapsed; paragraph breaks (blank lines) kept.
 */
export function cleanPageText(raw: string): string {
  const text = raw
    .replace(/[ﬀ-ﬆ]/g, (ligature) => LIGATURES[ligature] ?? ligature)
    .replace(/\u00ad/g, '')
    // Vertical writing comes out in its presentation forms (︒ for 。, ︵ for （): fold them back.
    .replace(/[\ufe10-\ufe19\ufe30-\ufe4f]/g, (form) => form.normalize('NFKC'))
    .replace(/\r\n?/g, '\n')
    .replace(/(\p{L})-\n\s*(\p{Ll})/gu, '$1$2')
  return joinWrappedJapaneseLines(text)
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

/** Readable, stable anchor for a heading (keeps Japanese as it is). */
export function slugify(heading: string): string {
  return (
    heading
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'section'
  )
}

/** Appends -2, -3 … to anchors already used in the same document. */
export function uniqueAnchors() {
  const used = new Map<string, number>()
  return (anchor: string) => {
    const count = (used.get(anchor) ?? 0) + 1
    used.set(anchor, count)
    return count === 1 ? anchor : `${anchor}-${count}`
  }
}
