import type { Morpheme } from './japanese-morphology.ts'

/**
 * Independent verbs by part of speech that say nothing of a topic (する, ある, できる…): a question
 * 「ペアリングできないときは」 must not match every FAQ row that 「できますか」. Lucene's Japanese
 * analyser drops the same ones by its stopword list; part of speech cannot tell them apart.
 */
const LIGHT_VERBS = new Set([
  'する',
  'ある',
  'いる',
  'なる',
  'できる',
  'おる',
  'れる',
  'られる',
  'せる',
  'させる',
  'くる',
  'いく',
  'みる',
])

/** Verbs that follow a request's て and make it one (教えてください, 説明していただけますか). */
const REQUEST_AUXILIARIES = new Set([
  'くださる',
  '下さる',
  'もらう',
  'いただく',
  '頂く',
  '頂ける',
  'いただける',
])

/**
 * Whether a morpheme says what a text is about, by part of speech (IPADIC): nouns, independent
 * verbs and adjectives, adverbs, prefixes and unknown words (names, katakana terms) do; particles,
 * auxiliaries, symbols, dependent nouns (こと, の), pronouns (何, どこ, それ), suffix verbs
 * (れる, られる) and light verbs (する, できる) do not. 何 as a number (何年, 何人) is the question, not its topic.
 */
export function isContentMorpheme(morpheme: Morpheme): boolean {
  const sub = morpheme.partOfSpeechSubcategory1 ?? '*'
  switch (morpheme.partOfSpeech) {
    case 'UNK':
    case '副詞':
    case '接頭詞':
      return true
    case '名詞':
      if (sub === '非自立' || sub === '代名詞') return false
      return !(sub === '数' && morpheme.baseForm === '何')
    case '動詞':
      return sub === '自立' && !LIGHT_VERBS.has(morpheme.baseForm ?? '')
    case '形容詞':
      return sub === '自立'
    default:
      return false
  }
}

/**
 * The base forms of a run's content morphemes. In a question, a verb that a request frame takes
 * (教え in 教えてください) is the asking, not the topic, and is dropped too.
 */
export function contentBaseForms(morphemes: Morpheme[], { question = false } = {}): string[] {
  const forms: string[] = []
  for (let i = 0; i < morphemes.length; i++) {
    const morpheme = morphemes[i] as Morpheme
    if (
      question &&
      morpheme.partOfSpeech === '動詞' &&
      morphemes[i + 1]?.surface === 'て' &&
      REQUEST_AUXILIARIES.has(morphemes[i + 2]?.baseForm ?? '')
    ) {
      i += 2
      continue
    }
    if (!isContentMorpheme(morpheme)) continue
    const base = morpheme.baseForm
    forms.push(base && base !== '*' ? base : morpheme.surface)
  }
  return forms
}
