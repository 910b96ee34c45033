import type { SpanToken, TokenKind } from './span-tokens.ts'

/** A run of tokens that could be a short answer: tokens[first..last] of its sentence. */
export interface SpanCandidate {
  first: number
  last: number
  /** The whole noun phrase, not a piece of it. */
  maximal: boolean
  /** Stands between quotes or brackets: 『鉄腕アトム』, “Hamlet”. */
  quoted: boolean
}

/** Longest answer considered, in tokens: a name like パウル・フォン・ヒンデンブルク is 5–9. */
export const MAX_SPAN_TOKENS = 9
/** A quoted title longer than this is a passage, not an answer. */
const MAX_QUOTED_TOKENS = 24

const NOUNISH = new Set<TokenKind>([
  'number',
  'counter',
  'person',
  'place',
  'organization',
  'proper',
  'noun',
  'suffix',
  'prefix',
])
/** Symbols that hold a name or a number together: ・ in names, - in codes, . in 3.5, $ and %. */
const JOINERS = /^[・･\-－‐.．/／:：$＄%％°℃〜~&＆+]$/
const CANNOT_START = new Set<TokenKind>(['suffix', 'counter'])
const CANNOT_END = new Set<TokenKind>(['prefix'])
/** English words that join a name's parts: University of Tokyo, Romeo and Juliet, Leonardo da Vinci. */
const ENGLISH_JOINERS = new Set(['of', 'and', 'the', 'de', 'da', 'von', 'van', 'del', 'la', 'le', '&'])

function nounish(token: SpanToken | undefined, japanese: boolean): boolean {
  if (!token) return false
  if (NOUNISH.has(token.kind)) return true
  // English adjectives stand in noun phrases ("basic design") and answer alone ("paramagnetic").
  if (!japanese) return token.kind === 'adjective'
  return token.kind === 'symbol' && JOINERS.test(token.text)
}

/**
 * Every run of tokens a short answer could be: the noun phrases of the sentence (a name, a number
 * with its counter, 〜の〜 joined once) and their pieces up to MAX_SPAN_TOKENS, and what stands
 * between quotes. A span never starts with a suffix or ends with a prefix or a joining symbol.
 */
export function spanCandidates(tokens: SpanToken[], japanese: boolean): SpanCandidate[] {
  const runs: [number, number][] = []
  for (let i = 0; i < tokens.length; ) {
    if (!nounish(tokens[i], japanese) || (tokens[i]?.kind === 'symbol' && !japanese)) {
      i++
      continue
    }
    let j = i
    while (
      j + 1 < tokens.length &&
      (nounish(tokens[j + 1], japanese) ||
        (!japanese &&
          ENGLISH_JOINERS.has(tokens[j + 1]?.text.toLowerCase() ?? '') &&
          nounish(tokens[j + 2], false)))
    )
      j++
    runs.push([i, j])
    i = j + 1
  }
  const seen = new Set<string>()
  const candidates: SpanCandidate[] = []
  const add = (first: number, last: number, maximal: boolean, quoted: boolean) => {
    const key = `${first}:${last}`
    if (seen.has(key)) return
    seen.add(key)
    candidates.push({ first, last, maximal, quoted })
  }
  const isQuoted = (first: number, last: number) =>
    tokens[first - 1]?.kind === 'open-quote' && tokens[last + 1]?.kind === 'close-quote'
  const usable = (first: number, last: number) => {
    const head = tokens[first] as SpanToken
    const tail = tokens[last] as SpanToken
    if (CANNOT_START.has(head.kind) || CANNOT_END.has(tail.kind)) return false
    if (tail.kind === 'symbol' || (head.kind === 'symbol' && !/^[$＄]$/.test(head.text))) return false
    if (!japanese && ENGLISH_JOINERS.has(head.text.toLowerCase()) && head.text.toLowerCase() !== 'the')
      return false
    return !(!japanese && ENGLISH_JOINERS.has(tail.text.toLowerCase()))
  }
  for (const [start, end] of runs) {
    for (let first = start; first <= end; first++) {
      for (let last = first; last <= end && last - first < MAX_SPAN_TOKENS; last++) {
        if (usable(first, last)) add(first, last, first === start && last === end, isQuoted(first, last))
      }
    }
  }
  // 〜の〜: タンネンベルクの戦い, 東京大学の教授 — two noun phrases joined once.
  if (japanese) {
    for (let r = 0; r + 1 < runs.length; r++) {
      const [start, end] = runs[r] as [number, number]
      const [nextStart, nextEnd] = runs[r + 1] as [number, number]
      if (nextStart === end + 2 && tokens[end + 1]?.text === 'の' && nextEnd - start < MAX_SPAN_TOKENS + 2)
        if (usable(start, nextEnd)) add(start, nextEnd, true, isQuoted(start, nextEnd))
    }
  }
  // What stands between quotes, whatever it is: a title, a saying.
  tokens.forEach((token, open) => {
    if (token.kind !== 'open-quote') return
    for (let close = open + 2; close < tokens.length && close - open <= MAX_QUOTED_TOKENS; close++) {
      const end = tokens[close] as SpanToken
      if (end.kind === 'open-quote') return
      if (end.kind === 'close-quote') {
        add(open + 1, close - 1, true, true)
        return
      }
    }
  })
  return candidates
}
