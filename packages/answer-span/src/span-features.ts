import type { QuestionFrame } from './question-frame.ts'
import type { SpanCandidate } from './span-candidates.ts'
import type { SpanToken } from './span-tokens.ts'

/** A candidate's features by name: the model's weights are read by the same names. */
export type SpanFeatures = Map<string, number>

const NEAR = 6
/** Shapes said the same way in either language, so a model fitted on one carries to the other. */
const DATE_COUNTERS = /^(年|月|日|世紀|年代|年間|時代|年度|時|分)$/
const YEAR = /^(1\d{3}|20\d{2})s?$/
const MONTHS =
  /^(january|february|march|april|may|june|july|august|september|october|november|december|century|centuries)$/i
const NAME_KINDS = new Set(['person', 'place', 'organization', 'proper'])

function shapeFeatures(inside: SpanToken[], next: SpanToken | undefined, set: (name: string) => void) {
  const numberAt = inside.findIndex((token) => token.kind === 'number')
  const dateLike = inside.some(
    (token, i) =>
      (token.kind === 'counter' && DATE_COUNTERS.test(token.text) && inside[i - 1]?.kind === 'number') ||
      (token.kind === 'number' && YEAR.test(token.text)) ||
      MONTHS.test(token.text),
  )
  if (dateLike) set('date-like')
  // A number with what it counts: 3年, 40,000 hours, $5 million.
  if (numberAt >= 0 && numberAt < inside.length - 1) set('quantity')
  const tail = inside.at(-1)
  if (
    tail?.kind === 'number' &&
    next &&
    (next.kind === 'counter' || next.kind === 'noun' || next.kind === 'suffix')
  )
    set('unit-left-out')
  const content = inside.filter((token) => token.content)
  if (content.length > 0 && content.every((token) => NAME_KINDS.has(token.kind))) set('name-like')
}

function distanceBucket(distance: number): string {
  if (distance === Number.POSITIVE_INFINITY) return 'none'
  if (distance <= 1) return '1'
  if (distance <= 3) return '3'
  if (distance <= 7) return '7'
  return 'far'
}

/** How the question's words sit around each token of the sentence, computed once per sentence. */
export interface SentenceContext {
  tokens: SpanToken[]
  /** Whether each token is one of the question's words. */
  matched: boolean[]
  /** Share of the question's words the sentence holds. */
  overlap: number
  /** Its place among the passage's sentences by that share (0: holds the most). */
  rank: number
}

/** The share of the question's words a sentence's tokens hold. */
export function overlapOf(tokens: SpanToken[], frame: QuestionFrame): number {
  if (frame.words.size === 0) return 0
  const keys = new Set(tokens.map((token) => token.key))
  let found = 0
  for (const word of frame.words) if (keys.has(word)) found++
  return found / frame.words.size
}

export function sentenceContext(tokens: SpanToken[], frame: QuestionFrame, rank = 0): SentenceContext {
  return {
    tokens,
    matched: tokens.map((token) => token.content && frame.words.has(token.key)),
    overlap: overlapOf(tokens, frame),
    rank,
  }
}

function shareInWindow(context: SentenceContext, from: number, to: number, words: Set<string>): number {
  if (words.size === 0) return 0
  const found = new Set<string>()
  for (let i = Math.max(0, from); i <= Math.min(context.tokens.length - 1, to); i++) {
    const token = context.tokens[i] as SpanToken
    if (words.has(token.key)) found.add(token.key)
  }
  return found.size / words.size
}

/**
 * What makes a span the answer, as the SQuAD paper's feature-based baseline reads it, without a
 * parser: its kind against the question's (a person for 誰, a number with a counter for 何人), how
 * close the question's words stand and on which side, whether it repeats the question (answers
 * rarely do), the particle or word right after it, its length, and the question's focus noun.
 */
export function spanFeatures(
  frame: QuestionFrame,
  context: SentenceContext,
  span: SpanCandidate,
): SpanFeatures {
  const { tokens, matched } = context
  const features: SpanFeatures = new Map()
  const q = frame.type
  const set = (name: string, value = 1) => features.set(name, value)
  const inside = tokens.slice(span.first, span.last + 1)
  const head = inside.at(-1) as SpanToken
  const length = span.last - span.first + 1
  set(`${q}|head:${head.kind}`)
  set(`${q}|first:${(inside[0] as SpanToken).kind}`)
  set(`${q}|len:${Math.min(length, 7)}`)
  if (inside.some((token) => token.kind === 'number')) set(`${q}|number`)
  if (inside.some((token) => token.kind === 'counter')) set(`${q}|counter`)
  shapeFeatures(inside, tokens[span.last + 1], (name) => set(`${q}|${name}`))
  if (span.quoted) set(`${q}|quoted`)
  if (span.maximal) set(`${q}|maximal`)
  const content = inside.filter((token) => token.content)
  const repeated = content.filter((token) => frame.words.has(token.key)).length
  if (content.length > 0) {
    set('repeats', repeated / content.length)
    if (repeated === content.length) set(`${q}|all-repeated`)
  }
  // The nearest question word outside the span, on each side.
  let left = Number.POSITIVE_INFINITY
  for (let i = span.first - 1; i >= 0; i--)
    if (matched[i]) {
      left = span.first - i
      break
    }
  let right = Number.POSITIVE_INFINITY
  for (let i = span.last + 1; i < tokens.length; i++)
    if (matched[i]) {
      right = i - span.last
      break
    }
  set(`left:${distanceBucket(left)}`)
  set(`right:${distanceBucket(right)}`)
  set(`${q}|nearest:${distanceBucket(Math.min(left, right))}`)
  set('near', shareInWindow(context, span.first - NEAR, span.last + NEAR, frame.words))
  set('before-left', shareInWindow(context, span.first - NEAR * 2, span.first - 1, frame.before))
  set('after-right', shareInWindow(context, span.last + 1, span.last + NEAR * 2, frame.after))
  set('before-right', shareInWindow(context, span.last + 1, span.last + NEAR * 2, frame.before))
  set('after-left', shareInWindow(context, span.first - NEAR * 2, span.first - 1, frame.after))
  const next = tokens[span.last + 1]
  const previous = tokens[span.first - 1]
  if (next && !next.content) set(`${q}|next:${next.text}`)
  if (!next) set(`${q}|next:END`)
  if (previous && !previous.content) set(`${q}|previous:${previous.text}`)
  if (!previous) set(`${q}|previous:START`)
  if (frame.whParticle && next?.text === frame.whParticle) set('wh-particle')
  if (frame.focus) {
    if (head.key === frame.focus || head.text.endsWith(frame.focus)) set('focus-head')
    if (next?.key === frame.focus) set('focus-next')
    if (inside.some((token) => token.key === frame.focus)) set('focus-inside')
  }
  set('position', span.first / Math.max(1, tokens.length))
  // Which sentence of the passage it stands in: the one saying most of the question, usually.
  set('sentence-overlap', context.overlap)
  set(`sentence-rank:${context.rank}`)
  return features
}
