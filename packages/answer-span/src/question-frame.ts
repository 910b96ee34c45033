import { isJapanese, type SpanToken, spanTokens } from './span-tokens.ts'

/** What a question asks for, read from its question word: who, where, when, how many, which… */
export type QuestionType =
  | 'person'
  | 'place'
  | 'date'
  | 'number'
  | 'entity'
  | 'reason'
  | 'method'
  | 'yesno'
  | 'other'

export interface QuestionFrame {
  type: QuestionType
  japanese: boolean
  /** The keys of the question's content words (its question word left out). */
  words: Set<string>
  /** The content words said before and after the question word. */
  before: Set<string>
  after: Set<string>
  /** The noun the question word asks about: どの「国」, 何という「川」, which "river". */
  focus: string | null
  /** In Japanese, the particle after the question word: 誰「が」開いた → が. */
  whParticle: string | null
  /** Whether the question itself is negated (〜ないのはどれ, "is not"), for yes/no answers. */
  negated: boolean
}

const JA_WH: [RegExp, QuestionType][] = [
  [/^(誰|だれ|どなた|何者)$/, 'person'],
  [/^(どこ|何処)$/, 'place'],
  [/^(いつ)$/, 'date'],
  [/^(なぜ|何故|どうして)$/, 'reason'],
  [/^(いくつ|いくら|幾つ)$/, 'number'],
  [/^(どう|どのよう|如何)$/, 'method'],
  [/^(何|なに|なん|どの|どれ|どちら|どんな|どういう)$/, 'entity'],
]
const JA_DATE_COUNTERS = /^(年|月|日|世紀|年代|時代|曜日|曜)$/
const EN_AUX_START =
  /^(is|are|was|were|do|does|did|can|could|will|would|has|have|had|should|shall|may|might|must)$/i
const EN_NUMBER_AFTER_HOW = /^(many|much|long|old|far|large|big|tall|high|deep|often|wide|heavy|fast)$/i
const EN_DATE_NOUNS = /^(year|years|century|decade|month|day|date|time|era|period)$/i
const EN_VERB_AFTER_WH =
  /^(is|was|are|were|do|does|did|has|have|had|can|could|will|would|should|may|might|must)$/i
const EN_PLACE_NOUNS =
  /^(country|countries|city|cities|state|place|region|town|continent|island|nation|venue|stadium|river|mountain|county|province|district|area|location|site|street|sea|ocean|lake|village|capital|airport|park|borough|neighbou?rhood|building|port|valley|desert)$/i
const EN_PERSON_NOUNS =
  /^(person|people|man|woman|king|queen|president|author|artist|scientist|player|performer|singer|actor|actress|writer|poet|composer|painter|architect|engineer|inventor|leader|emperor|general|coach|quarterback|pope|bishop|chancellor|minister|governor|mayor|prince|princess|explorer|philosopher|physicist|chemist|mathematician|individual|economist|politician|senator|director|founder|musician|rapper|monarch|ruler|son|daughter|father|mother|wife|husband)$/i
const NEGATION = /ない|ません|ず[、。]?$|not\b|n't\b|\bnever\b|\bno\b/i

/** Question words the analyser can cut wrongly (はいつ → は・い・つ), found in the text instead. */
const JA_WH_TEXT: [RegExp, QuestionType][] = [
  [/いつ/, 'date'],
  [/誰|だれ/, 'person'],
  [/どこ/, 'place'],
  [/なぜ|何故|どうして/, 'reason'],
  [/いくつ|いくら/, 'number'],
  // 何と呼ぶ, 何と読む: the analyser reads 何と as one adverb (なんと, "what a…"), not 何 + と.
  [/(何|なん)(と|て|という)|(何|なに)(が|を|の|に|で)/, 'entity'],
  [/どの|どれ|どちら|どんな/, 'entity'],
]

function japaneseFrame(tokens: SpanToken[], question: string): { type: QuestionType; wh: number } {
  const found = japaneseTokenFrame(tokens)
  if (found.type !== 'yesno') return found
  for (const [pattern, type] of JA_WH_TEXT) {
    const at = pattern.exec(question)?.index
    if (at !== undefined) return { type, wh: tokens.findIndex((token) => token.end > at) }
  }
  return found
}

function japaneseTokenFrame(tokens: SpanToken[]): { type: QuestionType; wh: number } {
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as SpanToken
    const next = tokens[i + 1]
    for (const [pattern, type] of JA_WH) {
      if (!pattern.test(token.text)) continue
      if (type === 'entity' && /^(何|なん)$/.test(token.text) && next?.kind === 'counter')
        return { type: JA_DATE_COUNTERS.test(next.text) ? 'date' : 'number', wh: i }
      if (token.text === 'どの' && next && /^(くらい|ぐらい|程度|位)$/.test(next.text))
        return { type: 'number', wh: i }
      if (type === 'entity' && next && /^(国|都市|場所|地域|県|州|町|市|村|島|大陸)$/.test(next.text))
        return { type: 'place', wh: i }
      if (type === 'entity' && next && /^(人|人物)$/.test(next.text)) return { type: 'person', wh: i }
      return { type, wh: i }
    }
  }
  return { type: 'yesno', wh: -1 }
}

/** A Japanese question with no question word asks yes or no when it ends on a predicate: 〜ますか. */
const JA_YES_NO_END = /(ます|です|ました|でした|でしょう|ません|ない|なかった|[るた]|できる)(か|の)?[?？。]*$/

function englishFrame(tokens: SpanToken[]): { type: QuestionType; wh: number } {
  for (let i = 0; i < tokens.length; i++) {
    const word = (tokens[i] as SpanToken).text.toLowerCase()
    const next = tokens[i + 1]?.text ?? ''
    if (word === 'who' || word === 'whom' || word === 'whose') return { type: 'person', wh: i }
    if (word === 'where') return { type: 'place', wh: i }
    if (word === 'when') return { type: 'date', wh: i }
    if (word === 'why') return { type: 'reason', wh: i }
    if (word === 'how') return { type: EN_NUMBER_AFTER_HOW.test(next) ? 'number' : 'method', wh: i }
    if (word === 'what' || word === 'which') {
      // The noun asked about: the word after "what", or after a few that qualify it ("which NFL
      // team", "what California venue"), never past the verb.
      const nouns = tokens
        .slice(i + 1, i + 4)
        .map((token) => token.text)
        .filter((_, k, all) => !all.slice(0, k + 1).some((text) => EN_VERB_AFTER_WH.test(text)))
      const asked = (pattern: RegExp) => nouns.some((noun) => pattern.test(noun))
      if (EN_DATE_NOUNS.test(next)) return { type: 'date', wh: i }
      if (/^(percentage|percent|number|amount|proportion|size|population)$/i.test(next))
        return { type: 'number', wh: i }
      if (asked(EN_PLACE_NOUNS)) return { type: 'place', wh: i }
      if (asked(EN_PERSON_NOUNS)) return { type: 'person', wh: i }
      return { type: 'entity', wh: i }
    }
  }
  if (EN_AUX_START.test(tokens[0]?.text ?? '')) return { type: 'yesno', wh: -1 }
  return { type: 'other', wh: -1 }
}

/** The frame of a question: its type, its words on either side of the question word, its focus. */
export function questionFrame(question: string): QuestionFrame {
  const japanese = isJapanese(question)
  const tokens = spanTokens(question)
  const found = japanese ? japaneseFrame(tokens, question) : englishFrame(tokens)
  const { wh } = found
  // 「カフカの父親の名前は?」 has no question word and is no yes/no question.
  const type =
    japanese && found.type === 'yesno' && !JA_YES_NO_END.test(question.trim()) ? 'entity' : found.type
  const words = new Set<string>()
  const before = new Set<string>()
  const after = new Set<string>()
  tokens.forEach((token, i) => {
    if (i === wh || !token.content) return
    words.add(token.key)
    ;(i < wh ? before : after).add(token.key)
  })
  let focus: string | null = null
  const next = wh >= 0 ? tokens[wh + 1] : undefined
  const afterNext = wh >= 0 ? tokens[wh + 2] : undefined
  if (next && (next.content || next.kind === 'counter' || next.kind === 'suffix')) focus = next.key
  // 何という川, 何の本: the noun comes after a particle.
  else if (japanese && next && /^(という|と|の)$/.test(next.text) && afterNext?.content) focus = afterNext.key
  const whParticle = japanese && next?.kind === 'particle' ? next.text : null
  return {
    type,
    japanese,
    words,
    before,
    after,
    focus,
    whParticle,
    negated: NEGATION.test(question.replace(/[?？。]+$/, '')),
  }
}
