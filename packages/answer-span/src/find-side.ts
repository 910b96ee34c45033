import { negatedAfter, negatedBefore } from './negation.ts'
import type { SpanToken } from './span-tokens.ts'

/** A word of a pair of opposites, or a pattern (a price stated). */
export type Term = string | RegExp

export interface Found {
  side: 'yes' | 'no'
  at: number
  end: number
}

/**
 * The term of an opposites pair in a text (longest forms first) with where it stands: the one
 * nearest the question's other words (`near`: where they stand) when it holds several — "entry is
 * free, parking costs $5" answers a question about parking with its cost.
 */
export function findSide(
  text: string,
  pair: { yes: Term[]; no: Term[] },
  japanese: boolean,
  near: number[] = [],
  /** The question's own term of the pair (when reading a sentence). */
  asked = '',
  /** Whether patterns count (a price stated): in a sentence, not in a question, which asks a word. */
  patterns = true,
): Found | null {
  const lowered = text.toLowerCase()
  const length = (term: Term) => (typeof term === 'string' ? term.length : 0)
  const terms = [
    ...pair.yes.map((term) => ({ term, side: 'yes' as const })),
    ...pair.no.map((term) => ({ term, side: 'no' as const })),
  ].sort((a, b) => length(b.term) - length(a.term))
  const found: Found[] = []
  const taken: [number, number][] = []
  for (const { term, side } of terms) {
    if (!patterns && typeof term !== 'string') continue
    const pattern =
      typeof term !== 'string'
        ? term
        : japanese
          ? new RegExp(escapeRegExp(term), 'g')
          : new RegExp(`\\b${escapeRegExp(term.toLowerCase())}\\b`, 'g')
    for (const match of lowered.matchAll(pattern)) {
      const at = match.index ?? 0
      const end = at + match[0].length
      // Inside a longer term already found (必要 inside 不必要): not this one.
      if (taken.some(([from, to]) => at >= from && end <= to)) continue
      taken.push([at, end])
      found.push({ side, at, end })
    }
  }
  const distance = (term: Found) =>
    near.length === 0 ? term.at : Math.min(...near.map((at) => Math.abs(at - term.at)))
  // The question's own word, or its direct opposite (必要 and 不要 share 要), before another member
  // of the pair that happens to stand nearer (なければならない in a sentence about 不要).
  const kin = (term: Found) =>
    asked &&
    [...text.slice(term.at, term.end)].some((char) => asked.includes(char) && char.charCodeAt(0) > 0x7f)
      ? 0
      : 1
  const predicate = (term: Found) =>
    !japanese ? 0 : isFinalPredicate(text, term) ? 0 : isPredicate(text, term) ? 1 : 2
  return (
    found.sort(
      (a, b) => kin(a) - kin(b) || predicate(a) - predicate(b) || distance(a) - distance(b) || a.at - b.at,
    )[0] ?? null
  )
}

/** Where the question's content words (but `except`'s span) stand in a sentence. */
export function whereWordsStand(question: SpanToken[], sentence: SpanToken[], except?: Found): number[] {
  const words = new Set(
    question
      .filter((token) => token.content && !(except && token.start >= except.at && token.end <= except.end))
      .map((token) => token.key),
  )
  return sentence.filter((token) => words.has(token.key)).map((token) => token.start)
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Whether a Japanese term is its clause's predicate: only kana endings follow it (必要|ですか,
 * 違い|ますか, あり|ません。). A term inside a subordinate part (関係がある可能性が指摘されて…) is not
 * what the clause asserts, and does not decide it.
 */
export const isPredicate = (text: string, term: Found) =>
  /^[\p{Script=Hiragana}ー]{0,10}([、。！？?]|$)/u.test(text.slice(term.end))
/** …and the predicate of the last clause (not 〜であり、 of one before it). */
export const isFinalPredicate = (text: string, term: Found) =>
  /^[\p{Script=Hiragana}ー]{0,10}[。！？?]*$/u.test(text.slice(term.end))

/** A side, flipped when the words around it negate it. */
export function sideIn(text: string, found: Found, japanese: boolean): 'yes' | 'no' {
  const negated = negatedAfter(text, found.end, japanese) !== negatedBefore(text, found.at, japanese)
  return negated ? (found.side === 'yes' ? 'no' : 'yes') : found.side
}
