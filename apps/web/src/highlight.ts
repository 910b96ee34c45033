/** Words of a query worth marking in a passage: what the reader scans for. */

const ENGLISH_STOPWORDS = new Set(
  'a an and are as at be by do does for from how in is it of on or the this to was what when where which who why with'.split(
    ' ',
  ),
)
// Particles, copulas and endings (は, の, です, ですか…) are hiragana-only words: they match everywhere.
const HIRAGANA_ONLY = /^[\p{Script=Hiragana}ー]+$/u
const WORDLIKE = /[\p{L}\p{N}]/u

/** The query split into words (Intl.Segmenter knows Japanese word boundaries), function words dropped. */
export function queryTerms(query: string): string[] {
  const segmenter = new Intl.Segmenter('ja', { granularity: 'word' })
  const terms = new Set<string>()
  for (const { segment } of segmenter.segment(query.normalize('NFKC'))) {
    const word = segment.trim().toLowerCase()
    if (!WORDLIKE.test(word) || HIRAGANA_ONLY.test(word) || ENGLISH_STOPWORDS.has(word)) continue
    if (/^[a-z0-9]$/.test(word)) continue
    terms.add(word)
  }
  return [...terms]
}

export interface Piece {
  text: string
  match: boolean
}

const escapeRegExp = (term: string) => term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The text cut into pieces, the ones equal to a term (case-insensitive, longest first) marked. */
export function highlight(text: string, terms: string[]): Piece[] {
  if (terms.length === 0) return [{ text, match: false }]
  const pattern = new RegExp(
    `(${[...terms]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join('|')})`,
    'giu',
  )
  // Split on a capturing group: matches land at the odd positions. Adjacent matches (保証 + 期間)
  // become one mark.
  const pieces: Piece[] = []
  text.split(pattern).forEach((part, index) => {
    const match = index % 2 === 1
    const last = pieces.at(-1)
    if (part === '') return
    if (last && last.match === match) last.text += part
    else pieces.push({ text: part, match })
  })
  return pieces
}

/** The text cut at the places it holds one of the quotes (exact pieces of it), those pieces marked. */
export function quotePieces(text: string, quotes: string[]): Piece[] {
  const present = quotes.filter((quote) => quote !== '' && text.includes(quote))
  if (present.length === 0) return [{ text, match: false }]
  return text
    .split(new RegExp(`(${present.map(escapeRegExp).join('|')})`, 'u'))
    .filter((part) => part !== '')
    .map((part) => ({ text: part, match: present.includes(part) }))
}

/** An answer cut at its [n] citation markers, so each can link to its source. */
export function citationPieces(answer: string): ({ text: string } | { marker: number })[] {
  return answer
    .split(/(\[\d+\])/)
    .filter((piece) => piece !== '')
    .map((piece) => {
      const marker = /^\[(\d+)\]$/.exec(piece)?.[1]
      return marker ? { marker: Number(marker) } : { text: piece }
    })
}
