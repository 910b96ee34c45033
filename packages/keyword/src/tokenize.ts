import { stemmer } from 'stemmer'
import { contentBaseForms } from './content-morphemes.ts'
import { morphemes } from './japanese-morphology.ts'
import { ENGLISH_STOPWORDS, JAPANESE_STOPWORDS } from './stopwords.ts'

/**
 * How text becomes search terms. "words" is what the index and queries use; "icu" (ICU words
 * only, the analyser before this one) and "bigram" are kept as baselines for the measurements
 * (`pnpm --filter @rag/keyword measure`).
 */
export type TokenizerKind = 'words' | 'icu' | 'bigram'

/** A text's terms for keyword search: words (with Japanese base forms) and CJK character pairs. */
export interface TextTerms {
  words: string[]
  /** Overlapping character pairs of every Japanese run, across word borders (国家 holds 国). */
  bigrams: string[]
}

/**
 * Bumped whenever the same text starts giving different terms: an index built by an older
 * analyser is re-analysed (ingest's reanalyzeKeywordIndex) and evaluation corpora are rebuilt.
 */
export const ANALYZER_VERSION = 'words-2'

const segmenter = new Intl.Segmenter('ja', { granularity: 'word' })
/** After "how", these ask for a quantity (how long, how many): the question's frame, not its topic. */
const HOW_FRAMES = new Set([
  'many',
  'much',
  'long',
  'old',
  'far',
  'large',
  'big',
  'tall',
  'high',
  'deep',
  'often',
  'soon',
])
const CJK_RUN = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆ヵヶ]+$/u
const LATIN_WORD = /^[\p{Script=Latin}\p{N}][\p{Script=Latin}\p{N}'’_-]*$/u

function bigramsOf(run: string, out: string[]) {
  if (run.length === 1) out.push(run)
  for (let i = 0; i + 1 < run.length; i++) out.push(run.slice(i, i + 2))
}

/** An English word as a term: possessives dropped (Manning's → manning), stemmed, or null for a stopword. */
function latinTerm(segment: string, { possessives = true } = {}): string | null {
  const word = possessives ? segment.replace(/['’]s$/, '').replace(/['’]$/, '') : segment
  if (!word || ENGLISH_STOPWORDS.has(word)) return null
  return /\d/.test(word) ? word : stemmer(word)
}

/**
 * Text (NFKC-normalised: full-width ASCII, half-width katakana; lower-cased) split by ICU word
 * segmentation; runs of Japanese are then analysed by IPADIC into base forms of their content
 * words (呼ばれ → 呼ぶ; particles, auxiliaries and question words dropped by part of speech) and
 * also cut into character pairs; English words are Porter-stemmed without stopwords. With
 * `question`, its frame is dropped too: request frames (教えてください), "how" + many / long / old….
 */
export function analyzeText(text: string, { question = false } = {}): TextTerms {
  const words: string[] = []
  const bigrams: string[] = []
  let run = ''
  let previous = ''
  const flushRun = () => {
    if (!run) return
    words.push(...contentBaseForms(morphemes(run), { question }))
    bigramsOf(run, bigrams)
    run = ''
  }
  for (const { segment, isWordLike } of segmenter.segment(text.normalize('NFKC').toLowerCase())) {
    if (!isWordLike) {
      flushRun()
      continue
    }
    if (CJK_RUN.test(segment)) {
      run += segment
      continue
    }
    flushRun()
    if (LATIN_WORD.test(segment)) {
      const term = question && previous === 'how' && HOW_FRAMES.has(segment) ? null : latinTerm(segment)
      if (term) words.push(term)
    } else words.push(segment)
    previous = segment
  }
  flushRun()
  return { words, bigrams }
}

/** ICU words alone, Japanese by a stopword list, possessives kept: the analyser the words kind replaced. */
function icuWords(text: string): string[] {
  const terms: string[] = []
  for (const { segment, isWordLike } of segmenter.segment(text.normalize('NFKC').toLowerCase())) {
    if (!isWordLike) continue
    if (CJK_RUN.test(segment)) {
      if (!JAPANESE_STOPWORDS.has(segment)) terms.push(segment)
    } else if (LATIN_WORD.test(segment)) {
      const term = latinTerm(segment, { possessives: false })
      if (term) terms.push(term)
    } else terms.push(segment)
  }
  return terms
}

/** A text's terms of one kind, in text order (duplicates kept: their counts are term frequencies). */
export function tokenize(text: string, kind: TokenizerKind = 'words'): string[] {
  if (kind === 'icu') return icuWords(text)
  if (kind === 'bigram') return analyzeText(text).bigrams
  return analyzeText(text).words
}
