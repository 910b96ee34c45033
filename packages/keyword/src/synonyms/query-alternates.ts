import { analyzeText } from '../tokenize.ts'
import type { SynonymTable } from './synonym-table.ts'

/** A way a passage may say some of the question's words: found there, it counts as them, partly. */
export interface QueryAlternate {
  /** The question's words it stands for (analysed). */
  of: string[]
  /** The alternate's words (analysed), found in this order in a passage. */
  words: string[]
  /** How much a match through it counts against the words typed (0..1). */
  weight: number
}

/** Question spans tried against the table: up to this many words long. */
const MAX_SPAN = 4
/** At most this many alternates a question: a word with many near-synonyms drifts. */
const MAX_ALTERNATES = 24

const wordSegmenter = new Intl.Segmenter('ja', { granularity: 'word' })
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー]/u

/**
 * The alternates of a question's words through a synonym table: every span of the question as
 * typed (its ICU words, 1–4 in a row) and of its analysed base forms (支払え → 支払う) that the
 * table holds, longest first (年次有給休暇 is one term, not 年次, 有給 and 休暇 each: a word a longer
 * span matched is not matched again alone). An alternate
 * that holds the typed words anyway (有給 → 年次有給休暇 for a question saying 有給) adds nothing
 * and is left out.
 */
export function queryAlternates(
  question: string,
  words: string[],
  table: SynonymTable | null,
): QueryAlternate[] {
  if (!table || table.size === 0 || words.length === 0) return []
  const typed = new Set(words)
  const alternates: QueryAlternate[] = []
  const seen = new Set<string>()
  const spans = [...typedSpans(question), ...baseFormSpans(words)]
  // Words a longer span already matched are not matched again alone.
  const covered = new Set<string>()
  for (const span of new Set(spans)) {
    // The table first (a map lookup): only a span it holds is analysed, so a long question costs
    // lookups, not thousands of analyses.
    const found = table.alternatesOf(span)
    if (found.length === 0) continue
    const of = analyzeText(span).words.filter((word) => typed.has(word))
    if (of.length === 0 || of.every((word) => covered.has(word))) continue
    for (const word of of) covered.add(word)
    for (const alternate of found) {
      const altWords = analyzeText(alternate.text).words
      if (altWords.length === 0 || containsRun(altWords, of)) continue
      // Cut into single characters (年休 → 年 + 休, 支払い方 → 支払い + 方), it would match anywhere.
      if (altWords.length > 1 && altWords.some((word) => [...word].length === 1)) continue
      const key = `${of.join(' ')}\u0000${altWords.join(' ')}`
      if (seen.has(key)) continue
      seen.add(key)
      alternates.push({ of, words: altWords, weight: alternate.weight })
      if (alternates.length >= MAX_ALTERNATES) return alternates
    }
  }
  return alternates
}

/** Spans of the question's ICU words (punctuation ends one), longest first. */
function typedSpans(question: string): string[] {
  const segments: string[] = []
  for (const { segment, isWordLike } of wordSegmenter.segment(question.normalize('NFKC').toLowerCase())) {
    if (isWordLike) segments.push(segment)
    else if (segment.trim() !== '') segments.push('') // punctuation breaks a span
  }
  const spans: string[] = []
  for (let length = Math.min(MAX_SPAN, segments.length); length >= 1; length--) {
    for (let i = 0; i + length <= segments.length; i++) {
      const part = segments.slice(i, i + length)
      if (part.includes('')) continue
      spans.push(
        part.reduce((text, word) => (text === '' || joins(text, word) ? text + word : `${text} ${word}`), ''),
      )
    }
  }
  return spans
}

/** Japanese words are written together; others apart. */
const joins = (text: string, word: string) => CJK.test(text.at(-1) ?? '') && CJK.test(word[0] ?? '')

/** Spans of the analysed words (base forms), longest first, Japanese joined without spaces. */
function baseFormSpans(words: string[]): string[] {
  const spans: string[] = []
  for (let length = Math.min(MAX_SPAN, words.length); length >= 1; length--) {
    for (let i = 0; i + length <= words.length; i++) spans.push(words.slice(i, i + length).join(''))
  }
  return spans
}

function containsRun(haystack: string[], needle: string[]): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer
    return true
  }
  return false
}

/**
 * A passage's words with each alternate found in it replaced by the question's words it stands
 * for: what scoring and the answerability signals read, so a passage saying 年次有給休暇 holds the
 * 有休 asked about. `discount` says, per question word, how much less than typed those matches
 * count (1 − weight each): a term frequency is its count less its discount.
 */
export function withAlternates(
  terms: string[],
  alternates: QueryAlternate[],
): { terms: string[]; discount: Map<string, number> } {
  const discount = new Map<string, number>()
  if (alternates.length === 0) return { terms, discount }
  const byFirst = new Map<string, QueryAlternate[]>()
  for (const alternate of [...alternates].sort((a, b) => b.words.length - a.words.length)) {
    const first = alternate.words[0] as string
    byFirst.set(first, [...(byFirst.get(first) ?? []), alternate])
  }
  const out: string[] = []
  for (let i = 0; i < terms.length; ) {
    const match = byFirst
      .get(terms[i] as string)
      ?.find((alternate) => alternate.words.every((word, j) => terms[i + j] === word))
    if (!match) {
      out.push(terms[i] as string)
      i += 1
      continue
    }
    out.push(...match.of)
    for (const word of match.of) discount.set(word, (discount.get(word) ?? 0) + 1 - match.weight)
    i += match.words.length
  }
  return { terms: out, discount }
}
