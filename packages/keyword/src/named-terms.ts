import { analyzeText } from './tokenize.ts'

/** A run of Latin letters and digits, joined by the marks model numbers use (XR-300, GPT-4o, v1.2). */
const LATIN_RUN = /[\p{Script=Latin}\p{N}]+(?:[-_.·][\p{Script=Latin}\p{N}]+)*/gu
const JAPANESE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u
const LETTER = /\p{Script=Latin}/u
/** Units of measure: what 何km asks for, not a name (km, cm2, kg, mL, GB, kWh, mph). */
const UNIT = /^(?:[kcmμnG]?(?:m|g|l|L|t|W|Wh|Hz|B|b|bps)[23]?|mph|kph|ha|ppm|dB|cc)$/

/**
 * The names a Japanese question gives in Latin letters: model numbers (XR-300, A4), acronyms
 * (JSQuAD, NHK), product and service names (Python, Slack). An embedding model reads such a name as
 * noise and a ranking by rank alone cannot tell one rare exact match from a common word's, so
 * search puts passages holding them first (search's namedFirst). Each name is the terms its
 * letters index as (XR-300 → xr, 300): a passage holds the name when it holds all of them.
 */
export function namedTerms(question: string): string[][] {
  const text = question.normalize('NFKC')
  // In English text a name is one word among others: an acronym stands for words its answer may
  // spell out (NFL, IL-10), and putting its holders first cost MRR on SQuAD and SciFact.
  if (!JAPANESE.test(text)) return []
  const names: string[][] = []
  for (const { 0: run, index } of text.matchAll(LATIN_RUN)) {
    if (!LETTER.test(run) || run.length < 2 || UNIT.test(run.replace(/^[\p{N}.,]+/u, ''))) continue
    // The unit a number is asked or given in (何km, 約30cm): part of the answer, not a name.
    if (/[何数\p{N}]$/u.test(text.slice(0, index))) continue
    const terms = analyzeText(run).words
    if (terms.length > 0 && !names.some((name) => name.join(' ') === terms.join(' '))) names.push(terms)
  }
  return names
}

/** A name held by at most this share of the chunks searched (or three) is rare enough to order by. */
export const RARE_NAME_SHARE = 0.05

/**
 * The names few chunks hold (by the document frequency of their rarest term). A name most passages
 * hold — the product a whole library is about — tells none of them apart.
 */
export function rareNames(names: string[][], df: (term: string) => number, chunks: number): string[][] {
  const limit = Math.max(3, RARE_NAME_SHARE * chunks)
  return names.filter((name) => {
    const holders = Math.min(...name.map(df))
    return holders > 0 && holders <= limit
  })
}

/** How many of the names a passage's words hold, every term of each. */
export function namesHeld(names: string[][], words: ReadonlySet<string>): number {
  return names.filter((name) => name.every((term) => words.has(term))).length
}
