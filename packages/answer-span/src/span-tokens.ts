import { ENGLISH_STOPWORDS, type Morpheme, morphemes } from '@rag/keyword'
import { stemmer } from 'stemmer'
import { englishTags, type WordTags } from './english-tags.ts'

/**
 * What a token is, as far as an answer's kind goes: IPADIC's parts of speech for Japanese
 * (固有名詞 人名 → person, 数 → number, 助数詞 → counter), compromise's tags for English (a verb, a
 * person, a place, a value), its shape where compromise has none (a digit, a capital).
 */
export type TokenKind =
  | 'number'
  | 'counter'
  | 'person'
  | 'place'
  | 'organization'
  | 'proper'
  | 'noun'
  | 'suffix'
  | 'prefix'
  | 'verb'
  | 'adjective'
  | 'particle'
  | 'auxiliary'
  | 'open-quote'
  | 'close-quote'
  | 'symbol'
  | 'function'
  | 'other'

export interface SpanToken {
  /** The token as written, and where (UTF-16 offsets into the sentence). */
  text: string
  start: number
  end: number
  /** What it matches a question's word by: a base form, a stem, lower case. */
  key: string
  kind: TokenKind
  /** Carries meaning (a noun, a verb, a name), as opposed to a particle, a symbol, a stopword. */
  content: boolean
}

const OPEN_QUOTES = new Set(['「', '『', '（', '(', '“', '"', '《', '〈', '【', '['])
const CLOSE_QUOTES = new Set(['」', '』', '）', ')', '”', '"', '》', '〉', '】', ']'])
const JAPANESE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u

function japaneseKind(m: Morpheme): TokenKind {
  const sub1 = m.partOfSpeechSubcategory1 ?? ''
  const sub2 = m.partOfSpeechSubcategory2 ?? ''
  switch (m.partOfSpeech) {
    case '名詞':
      if (sub1 === '数') return 'number'
      if (sub1 === '固有名詞')
        return sub2 === '人名'
          ? 'person'
          : sub2 === '地域'
            ? 'place'
            : sub2 === '組織'
              ? 'organization'
              : 'proper'
      if (sub1 === '接尾') return sub2 === '助数詞' ? 'counter' : 'suffix'
      if (sub1 === '非自立' || sub1 === '代名詞') return 'function'
      return 'noun'
    case '接頭詞':
      return 'prefix'
    case '動詞':
      return 'verb'
    case '形容詞':
      return 'adjective'
    case '助詞':
      return 'particle'
    case '助動詞':
      return 'auxiliary'
    case '記号':
      if (OPEN_QUOTES.has(m.surface)) return 'open-quote'
      if (CLOSE_QUOTES.has(m.surface)) return 'close-quote'
      return 'symbol'
    case 'UNK':
      return /^[\p{N}.,]+$/u.test(m.surface) ? 'number' : 'proper'
    default:
      return 'other'
  }
}

const CONTENT_KINDS = new Set<TokenKind>([
  'number',
  'person',
  'place',
  'organization',
  'proper',
  'noun',
  'verb',
  'adjective',
])

/** A Japanese sentence as morphemes with their offsets (the analyser's surfaces, found in order). */
function japaneseTokens(text: string): SpanToken[] {
  const tokens: SpanToken[] = []
  let cursor = 0
  for (const m of morphemes(text)) {
    const start = text.indexOf(m.surface, cursor)
    if (start < 0 || m.surface.trim() === '') continue
    cursor = start + m.surface.length
    const kind = japaneseKind(m)
    const base = m.baseForm && m.baseForm !== '*' ? m.baseForm : m.surface
    tokens.push({
      text: m.surface,
      start,
      end: cursor,
      key: base.normalize('NFKC').toLowerCase(),
      kind,
      content: CONTENT_KINDS.has(kind),
    })
  }
  return tokens
}

const ENGLISH_TOKEN =
  /\p{N}[\p{N},.:/]*\p{N}%?|\p{N}%?|[\p{L}\p{M}][\p{L}\p{M}\p{N}'’.-]*[\p{L}\p{M}\p{N}]|[\p{L}\p{M}]|\S/gu
const ENGLISH_PARTICLES = new Set(['of', 'in', 'on', 'at', 'by', 'for', 'to', 'from', 'with', 'as', 'into'])
const ENGLISH_AUXILIARIES = new Set([
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
  'has',
  'have',
  'had',
  'did',
  'does',
  'do',
])

function englishKind(word: string, first: boolean, tags: WordTags | undefined): TokenKind {
  const lower = word.toLowerCase()
  if (/^\p{N}/u.test(word)) return 'number'
  if (OPEN_QUOTES.has(word)) return 'open-quote'
  if (CLOSE_QUOTES.has(word)) return 'close-quote'
  if (!/\p{L}/u.test(word)) return 'symbol'
  if (ENGLISH_PARTICLES.has(lower)) return 'particle'
  if (ENGLISH_AUXILIARIES.has(lower)) return 'auxiliary'
  if (ENGLISH_STOPWORDS.has(lower)) return 'function'
  const tagged = tags && taggedKind(tags)
  if (tagged) return tagged
  // A capital mid-sentence is a name; the first word's capital says nothing.
  if (/^\p{Lu}/u.test(word) && !first) return 'proper'
  return 'noun'
}

/**
 * What compromise's tags say a word is: a verb or an adverb is never inside a noun phrase (so
 * never a span: "Broncos practiced", "often transported"), a name says which kind it is.
 */
function taggedKind(tags: WordTags): TokenKind | null {
  if (tags.has('Value')) return 'number'
  if (tags.has('Person') && tags.has('ProperNoun')) return 'person'
  if (tags.has('Place')) return 'place'
  if (tags.has('Organization')) return 'organization'
  if (tags.has('ProperNoun')) return 'proper'
  if (tags.has('Noun')) return 'noun'
  if (tags.has('Adjective')) return 'adjective'
  if (tags.has('Verb')) return tags.has('Auxiliary') || tags.has('Copula') ? 'auxiliary' : 'verb'
  if (tags.has('Adverb')) return 'function'
  return null
}

/** An English (or other spaced) sentence as words, numbers and symbols, stemmed for matching. */
function englishTokens(text: string): SpanToken[] {
  const tokens: SpanToken[] = []
  const tags = englishTags(text)
  for (const match of text.matchAll(ENGLISH_TOKEN)) {
    const word = match[0]
    const kind = englishKind(word, tokens.length === 0, tags.get(match.index ?? 0))
    const lower = word
      .normalize('NFKC')
      .toLowerCase()
      .replace(/['’]s$/, '')
    tokens.push({
      text: word,
      start: match.index ?? 0,
      end: (match.index ?? 0) + word.length,
      key: kind === 'number' || !/\p{L}/u.test(lower) ? lower : stemmer(lower),
      kind,
      content: CONTENT_KINDS.has(kind),
    })
  }
  return tokens
}

/** Whether a text is Japanese (analysed by morphemes) rather than spaced words. */
export function isJapanese(text: string): boolean {
  return JAPANESE.test(text)
}

/** A sentence (or a question) as tokens: morphemes for Japanese, words for English. */
export function spanTokens(text: string): SpanToken[] {
  return isJapanese(text) ? japaneseTokens(text) : englishTokens(text)
}
