import { findSide, isFinalPredicate, sideIn, whereWordsStand } from './find-side.ts'
import { clauseNegated, EN_NEGATION, EN_NOT_NEGATION, JA_NOT_NEGATION, negatedAfter } from './negation.ts'
import { NOT_STATED, OPPOSITES } from './polarity-terms.ts'
import { isJapanese, type SpanToken, spanTokens } from './span-tokens.ts'

/**
 * What a sentence says to a yes/no question: yes, no, nothing either way (it is about the
 * question's topic but does not decide it), or that the thing is not stated (記載はありません:
 * the question is then unanswerable, never a flat no).
 */
export type Polarity = 'yes' | 'no' | 'undecided' | 'not-stated'

// Verbs that only carry another's meaning (ている, となる, される, している): not a predicate.
const CARRIER_VERBS =
  /^(い|いる|おり|おる|あっ|ある|なっ|なる|なり|れ|れる|られ|られる|さ|し|する|せ|せる|き|くる|み|みる|しまっ|しまう|いっ|いく)$/
const isCarrier = (token: SpanToken) =>
  token.kind === 'verb' && (CARRIER_VERBS.test(token.text) || CARRIER_VERBS.test(token.key))
// A question asking whether something exists (〜はありますか): only a sentence saying it is or is
// not there decides it (the ある/ない pair), not one that merely names the thing.
const EXISTENCE = /^(ある|あり|あっ|ござる|ござい)$/

/**
 * A Japanese word's stem: up to its last kanji (繰り越せる, 繰り越し → 繰り越; 使える, 使い → 使), so a
 * verb is found in its other forms and in the noun made of it. Null for a word without kanji.
 */
function stemOf(token: SpanToken): string | null {
  const chars = [...token.key]
  let last = -1
  chars.forEach((char, index) => {
    if (/\p{Script=Han}/u.test(char)) last = index
  })
  if (last < 0 || last === chars.length - 1) return last < 0 ? null : token.key
  return chars.slice(0, last + 1).join('')
}

/** Whether two tokens are the same word, allowing a Japanese verb's other forms (its stem). */
function sameWord(a: SpanToken, b: SpanToken): boolean {
  if (a.key === b.key) return true
  if (!(a.kind === 'verb' || b.kind === 'verb')) return false
  const stem = stemOf(a)
  return stem !== null && stem === stemOf(b)
}

/** The question's predicate: its last content word before the closing ですか / ますか / ?. */
function predicateOf(tokens: SpanToken[]): SpanToken | null {
  for (let i = tokens.length - 1; i >= 0; i--) {
    const token = tokens[i] as SpanToken
    if (isCarrier(token)) continue
    if (token.content && token.kind !== 'number' && token.kind !== 'counter') return token
  }
  return null
}

/** The question's topic: its first content word before は or が (入会金 of 入会金は必要ですか). */
function topicOf(tokens: SpanToken[]): SpanToken | null {
  const marker = tokens.findIndex((token) => token.kind === 'particle' && /^(は|が|も)$/.test(token.text))
  const before = tokens.slice(0, marker < 0 ? tokens.length : marker).filter((token) => token.content)
  return before.at(-1) ?? null
}

/**
 * Whether the sentence speaks of a narrower thing than the question asks of: its topic qualified by
 * a word the question does not have (返品 asked, セール品の返品 answered; 期限切れの会員証): what
 * holds of that part does not decide the whole.
 */
function narrowerSubject(question: SpanToken[], sentence: SpanToken[]): boolean {
  const topic = topicOf(question)
  if (!topic) return false
  const asked = new Set(question.map((token) => token.key))
  return sentence.some((token, i) => {
    if (token.key !== topic.key) return false
    if (sentence[i - 1]?.text !== 'の') return false
    // The word qualifying it, past its suffixes (セール・品 of セール品の返品).
    let at = i - 2
    while (at >= 0 && (sentence[at]?.kind === 'suffix' || sentence[at]?.kind === 'counter')) at--
    const qualifier = sentence[at]
    return qualifier?.content === true && !asked.has(qualifier.key)
  })
}

// The particles that mark a Japanese question's arguments: 電話「で」, 入会金「は」, 支払い方法「を」.
const ARGUMENT_PARTICLES = /^(は|が|を|で|に|へ|と|から|まで|の|も|より)$/
const NOUN_KINDS = new Set(['noun', 'proper', 'person', 'place', 'organization'])

/**
 * Whether the sentence names each argument of a Japanese question (the noun a particle marks,
 * outside the pair's own word): 「電話で問い合わせできますか」 is not decided by 「フォームで受け付けて
 * います」, which says nothing of the phone; 「支払い方法はクレジットカードのみです」 names 支払い方法.
 */
function namesArguments(question: SpanToken[], sentence: SpanToken[], term: { at: number; end: number }) {
  return question.every((token, i) => {
    if (!NOUN_KINDS.has(token.kind) || !token.content) return true
    if (token.start >= term.at && token.end <= term.end) return true
    const next = question[i + 1]
    if (next?.kind !== 'particle' || !ARGUMENT_PARTICLES.test(next.text)) return true
    return sentence.some((other) => sameWord(token, other) || other.key.includes(token.key))
  })
}

// Days and times: an "only" of one of them excludes another (平日のみ, "only on weekends").
const TIME_WORD =
  /[月火水木金土日]曜|平日|土日|休日|祝日|週末|午前|午後|夜間|\b(mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|weekdays?|weekends?|holidays?|mornings?|evenings?|nights?)\b/i
const JA_ONLY = /(のみ|(?<!いた)だけ(?!で)|に限り|に限ります|に限定|限定)/
const EN_ONLY = /\b(only|solely|exclusively)\b/i
// "Other than", 以外: the pair of opposites decides those, not this rule.
const ASKS_BEYOND = /以外|ほか|他の|\b(other than|besides|except|apart from|outside)\b/i

/**
 * "Only something else": a sentence saying the thing holds only of another (お支払いは現金のみ, "open
 * only on weekends") answers no to a question about one it names nowhere (クレジットカードは使えますか,
 * 土日も開いていますか, "…on Mondays?"); yes when the one it names is the one allowed (カードのみ for
 * クレジットカード). Null when the sentence says no "only", or names everything the question does.
 */
function onlyOther(
  question: SpanToken[],
  sentence: SpanToken[],
  text: string,
  japanese: boolean,
): Polarity | null {
  const only = (japanese ? JA_ONLY : EN_ONLY).exec(text)
  if (!only || ASKS_BEYOND.test(question.map((token) => token.text).join(' '))) return null
  const nouns = question.filter((token) => token.content && token.kind !== 'verb' && !isCarrier(token))
  const missing = nouns.filter((noun) => !sentence.some((token) => sameWord(noun, token)))
  if (missing.length === 0) return null
  // What the "only" restricts to: in Japanese the words before it (現金のみ), in English those after
  // it (only credit cards, only on weekends) or before it at a clause's end (by card only).
  const at = only.index
  const content = sentence.filter((token) => token.content && token.kind !== 'verb')
  const restricted = japanese
    ? content.filter((token) => token.end <= at).slice(-2)
    : [
        ...content.filter((token) => token.start >= at + only[0].length).slice(0, 2),
        ...content.filter((token) => token.end <= at).slice(-1),
      ]
  const overlaps = (a: string, b: string) => a.length > 1 && b.length > 1 && (a.includes(b) || b.includes(a))
  if (
    missing.some((noun) =>
      restricted.some((token) => overlaps(noun.text.toLowerCase(), token.text.toLowerCase())),
    )
  )
    return 'yes'
  // A sentence granting what is asked, to a part (小型犬に限り同伴可能: pets asked) says yes of that
  // part, which may be the one asked about: it decides nothing — unless both are times (平日のみ
  // against 土日, "only on weekends" against Mondays), which one cannot be part of the other.
  const predicate = predicateOf(question)
  const granted = predicate !== null && sentence.some((token) => sameWord(token, predicate))
  const times = (tokens: SpanToken[]) => tokens.some((token) => TIME_WORD.test(token.text))
  if (granted && !(times(missing) && times(restricted))) return 'undecided'
  return 'no'
}

/**
 * What `sentence` says to the yes/no `question`: through a pair of opposites the question names
 * (必要/不要, same/different, only/other than), each side read with the negation around it; else
 * through the question's own predicate (its last content word) found in the sentence, negated or
 * not. A sentence holding neither does not decide the question: `undecided`, and no yes or no is
 * given. A question negated itself is answered by the fact in English ("Isn't it free?" → "No"
 * when it costs), and left undecided in Japanese, where はい to 〜ませんか can mean either.
 */
export function polarityOf(question: string, sentence: string): Polarity {
  const japanese = isJapanese(question)
  if (NOT_STATED.test(sentence)) return 'not-stated'
  const asked = question.replace(/[?？。\s]+$/, '')
  const questionNegated = japanese
    ? /(ません|ない|なかった)(の|ん)?(です|でしょう)?か?$/.test(asked) && !JA_NOT_NEGATION.test(asked)
    : EN_NEGATION.test(asked) && !EN_NOT_NEGATION.test(asked)
  if (japanese && questionNegated) return 'undecided'
  const questionTokens = spanTokens(asked)
  const sentenceTokens = spanTokens(sentence)
  if (japanese && narrowerSubject(questionTokens, sentenceTokens)) return 'undecided'
  const only = onlyOther(questionTokens, sentenceTokens, sentence, japanese)
  if (only) return only
  for (const pair of OPPOSITES) {
    const inQuestion = findSide(asked, pair, japanese, [], '', false)
    // In Japanese the question asks its predicate: a pair's word elsewhere in it is not the claim.
    if (!inQuestion || (japanese && !pair.anywhere && !isFinalPredicate(asked, inQuestion))) continue
    const near = whereWordsStand(questionTokens, sentenceTokens, inQuestion)
    const inSentence = findSide(sentence, pair, japanese, near, asked.slice(inQuestion.at, inQuestion.end))
    if (!inSentence) continue
    if (japanese && !namesArguments(questionTokens, sentenceTokens, inQuestion)) return 'undecided'
    // The question's side as asked, its own negation taken off (English answers by the fact).
    const askedSide = japanese ? sideIn(asked, inQuestion, true) : inQuestion.side
    return sideIn(sentence, inSentence, japanese) === askedSide ? 'yes' : 'no'
  }
  // No opposites named: the sentence decides only when it says every content word the question
  // does (a sentence on the topic without the asked detail decides nothing), its predicate negated or not.
  // English: the question's own "not" taken off (answered by the fact); its words compared as said.
  const claimTokens = japanese
    ? questionTokens
    : spanTokens(asked.replace(/n't\b/gi, '').replace(/\b(not|never)\b/gi, ' '))
  const predicate = predicateOf(claimTokens)
  if (!predicate) return 'undecided'
  // 〜はありますか with no ある/ない in the sentence: naming the thing does not say it is there.
  const lastVerb = [...claimTokens].reverse().find((token) => token.kind === 'verb')
  const afterTe = lastVerb && /[てで]$/.test(asked.slice(0, lastVerb.start))
  if (japanese && lastVerb && !afterTe && EXISTENCE.test(lastVerb.key) && lastVerb.start > predicate.start)
    return 'undecided'
  const required = claimTokens.filter((token) => token.content && !isCarrier(token))
  if (required.some((token) => !sentenceTokens.some((other) => sameWord(token, other)))) return 'undecided'
  // Japanese says its predicate last: its last occurrence (中心 of 上級中心都市 is not the one asserted).
  const occurrences = sentenceTokens.filter((token) => sameWord(token, predicate))
  const found = japanese ? occurrences.at(-1) : occurrences[0]
  if (!found) return 'undecided'
  const negated = japanese ? negatedAfter(sentence, found.end, true) : clauseNegated(sentence, found.start)
  // A Japanese question may ask of its predicate negated (使えなくなりますか, 必要なくなりますか):
  // the sentence agrees when it is negated the same way.
  const askedNegated = japanese && negatedAfter(asked, predicate.end, true)
  return negated === askedNegated ? 'yes' : 'no'
}
