import { morphemes } from './japanese-morphology.ts'
import type { QueryAlternate } from './synonyms/query-alternates.ts'
import { analyzeText } from './tokenize.ts'

/** What of a question a passage says, as the passage writes it: what a reader is shown as "why". */
export interface PassageMatches {
  /** The passage's words that are the question's words (its own spelling: 保証期間, warranty). */
  words: string[]
  /** The passage's words that say a question's word another way (a synonym): what it says, for what. */
  synonyms: { said: string; for: string }[]
}

/** More would be a list nobody reads: the first ones in the passage's order are shown. */
const MAX_SHOWN = 12
const segmenter = new Intl.Segmenter('ja', { granularity: 'word' })
const CJK_RUN = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆ヵヶ]+$/u

/** Analysed words as a reader writes them: Japanese without spaces, English with. */
const joined = (words: readonly string[]) => words.join(words.every((word) => CJK_RUN.test(word)) ? '' : ' ')

/**
 * The passage's words with the terms the index made of each: Japanese runs cut by the same
 * dictionary as the analyser (a word's base form is its term), other words analysed alone.
 */
function* wordsWithTerms(text: string): Generator<{ surface: string; terms: string[] }> {
  let run = ''
  function* flush() {
    if (!run) return
    for (const morpheme of morphemes(run.normalize('NFKC').toLowerCase())) {
      const base = morpheme.baseForm && morpheme.baseForm !== '*' ? morpheme.baseForm : morpheme.surface
      yield { surface: morpheme.surface, terms: [base, morpheme.surface] }
    }
    run = ''
  }
  for (const { segment, isWordLike } of segmenter.segment(text)) {
    if (isWordLike && CJK_RUN.test(segment)) {
      run += segment
      continue
    }
    yield* flush()
    if (isWordLike) yield { surface: segment, terms: analyzeText(segment).words }
  }
  yield* flush()
}

/**
 * The passage's words whose analysed forms (base forms, stems) are among the question's `words`
 * or an alternate's: each word of the passage analysed as the index analysed it, so a match here
 * is a match the search counted.
 */
export function passageMatches(
  text: string,
  words: readonly string[],
  alternates: readonly QueryAlternate[] = [],
): PassageMatches {
  const asked = new Set(words)
  const alternateOf = new Map<string, string>()
  for (const alternate of alternates)
    for (const word of alternate.words) if (!asked.has(word)) alternateOf.set(word, joined(alternate.of))
  // Neighbouring Japanese words matched alike are shown as one (会議 + 室 → 会議室).
  const found: { surface: string; for: string | null; cjk: boolean }[] = []
  let previous: (typeof found)[number] | null = null
  for (const { surface, terms } of wordsWithTerms(text)) {
    const isAsked = terms.some((term) => asked.has(term))
    const stands = isAsked ? null : terms.map((term) => alternateOf.get(term)).find((of) => of !== undefined)
    if (!isAsked && stands === undefined) {
      previous = null
      continue
    }
    const cjk = CJK_RUN.test(surface)
    const forWord = stands ?? null
    if (previous?.cjk && cjk && previous.for === forWord) previous.surface += surface
    else {
      previous = { surface, for: forWord, cjk }
      found.push(previous)
    }
  }
  const matched = new Set<string>()
  const synonyms = new Map<string, string>()
  for (const item of found) {
    if (matched.size + synonyms.size >= MAX_SHOWN) break
    if (item.for === null) matched.add(item.surface)
    else if (!synonyms.has(item.surface)) synonyms.set(item.surface, item.for)
  }
  return { words: [...matched], synonyms: [...synonyms].map(([said, of]) => ({ said, for: of })) }
}
