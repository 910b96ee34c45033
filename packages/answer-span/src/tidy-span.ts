import type { AnswerType } from './answer-type.ts'

const OPENERS = '(（「『[［【〈《“"'
const CLOSERS = ')）」』]］】〉》”"'
// A reading, an original spelling or a note in brackets after a name: not part of what is quoted.
const TRAILING_NOTE = /\s*[(（][^()（）]*[)）]$/
// Words that make a person's name into something else: 佐藤栄作政権 is a government, not a person.
const NOT_OF_A_PERSON = /(政権|内閣|政府|一族|一家|家臣|軍|派|氏族|陣営|夫妻|親子|兄弟|姉妹)$/

/**
 * A span with what the cutting left at its edges taken off: a bracket whose partner is outside it
 * (`(258日`, `熊野丸」(日本郵船`), a note in brackets after it, and for a person the word that makes
 * the name a group or an office. A span with no letter or digit (`)`) is nothing: ''.
 */
export function tidySpan(span: string, type: AnswerType): string {
  let text = span.trim()
  if (type !== 'thing' || text.length > 8) text = text.replace(TRAILING_NOTE, '')
  // Each pass takes at least one character off or ends: an empty text ends it (''.indexOf-style
  // lookups find '' everywhere, so an empty text must never be looked at).
  for (let changed = true; changed && text.length > 0; ) {
    changed = false
    const first = text[0] ?? ''
    const last = text.at(-1) ?? ''
    const opener = OPENERS.indexOf(first)
    if (opener >= 0 && !text.slice(1).includes(CLOSERS[opener] ?? '')) {
      text = text.slice(1).trim()
      changed = true
    }
    const closer = text.length > 0 ? CLOSERS.indexOf(last) : -1
    if (closer >= 0 && !text.slice(0, -1).includes(OPENERS[closer] ?? '')) {
      text = text.slice(0, -1).trim()
      changed = true
    }
    // A bracket opened inside and never closed: the span ends before it (熊野丸」(日本郵船 → 熊野丸」).
    const open = [...text].findLastIndex((char) => OPENERS.includes(char))
    if (open > 0 && !CLOSERS.split('').some((closing) => text.slice(open).includes(closing))) {
      text = text.slice(0, open).trim()
      changed = true
    }
  }
  if (type === 'person') text = text.replace(NOT_OF_A_PERSON, '')
  return /[\p{L}\p{N}]/u.test(text) ? text : ''
}
