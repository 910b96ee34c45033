import { stemmer } from 'stemmer'
import { ENGLISH_STOPWORDS, JAPANESE_STOPWORDS } from './stopwords.ts'

export type TokenizerKind = 'icu' | 'bigram' | 'icu+bigram'

const segmenter = new Intl.Segmenter('ja', { granularity: 'word' })
const CJK_RUN = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆ヵヶ]+$/u
const LATIN_WORD = /^[\p{Script=Latin}\p{N}][\p{Script=Latin}\p{N}'’_-]*$/u

function bigrams(run: string): string[] {
  if (run.length < 2) return [run]
  const grams: string[] = []
  for (let i = 0; i + 1 < run.length; i++) grams.push(run.slice(i, i + 2))
  return grams
}

/**
 * Terms for BM25. Text is NFKC-normalised (full-width ASCII, half-width katakana) and lower-cased;
 * ICU word segmentation (Intl.Segmenter, no dictionary to ship) splits Japanese and spaced
 * languages alike; English words are Porter-stemmed; stopwords are dropped. "bigram" indexes
 * Japanese as overlapping character pairs instead, "icu+bigram" both (measured in bench/).
 */
export function tokenize(text: string, kind: TokenizerKind = 'icu'): string[] {
  const terms: string[] = []
  const normalized = text.normalize('NFKC').toLowerCase()
  let cjkRun = ''
  const flushRun = () => {
    if (cjkRun && kind !== 'icu') terms.push(...bigrams(cjkRun))
    cjkRun = ''
  }
  for (const { segment, isWordLike } of segmenter.segment(normalized)) {
    if (!isWordLike) {
      flushRun()
      continue
    }
    if (CJK_RUN.test(segment)) {
      cjkRun += segment
      if (kind !== 'bigram' && !JAPANESE_STOPWORDS.has(segment)) terms.push(segment)
      continue
    }
    flushRun()
    if (LATIN_WORD.test(segment)) {
      if (!ENGLISH_STOPWORDS.has(segment)) terms.push(/\d/.test(segment) ? segment : stemmer(segment))
    } else {
      terms.push(segment)
    }
  }
  flushRun()
  return terms
}
