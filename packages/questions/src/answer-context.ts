import { cellsOf, ROW_SOURCE, sentenceScorer, sentencesOf } from './extractive-answer.ts'
import type { QuestionSource } from './question-store.ts'

/** What the LLM reads of one passage. */
export interface ContextPassage {
  source: QuestionSource
  /** The passage's sentences that answer, with those around them, in text order (… where some are left out). */
  excerpt: string
  /** Its tokens, header included. */
  tokens: number
}

export interface AnswerContext {
  passages: ContextPassage[]
  tokens: number
}

export interface ContextRequest {
  question: string
  /** The passages, best first. */
  sources: QuestionSource[]
  /** The question's words' IDF (questionWordWeights). */
  idf: Map<string, number>
  /** Tokens the passages may take, headers included. */
  budget: number
  countTokens: (text: string) => number
  /** Read from the parent section (small-to-large) rather than the matched chunk only. */
  parents: boolean
}

/** A passage's header in the prompt: its number and what to cite. */
export const passageHeader = (rank: number, source: Pick<QuestionSource, 'sourceId' | 'heading'>) =>
  `[${rank}] (${source.sourceId}${source.heading ? ` ${source.heading}` : ''})\n`

/** A unit shorter than this (a heading, 「はい。」) says too little alone: the next one joins it. */
const SHORT_UNIT = 20
/** The retriever matched this unit's chunk: a little evidence of its own. */
const MATCHED_BONUS = 0.1
/** A unit beside one that holds the question often completes it (a pronoun's referent, the next clause). */
const NEIGHBOUR_SHARE = 0.4

interface Unit {
  text: string
  score: number
  tokens: number
}

/** A row this short is read whole (an FAQ's question needs its answer cell beside it). */
const WHOLE_ROW_CHARS = 400

/** A passage cut into what can be kept or left out: sentences, or a long row's `column: value` cells. */
function unitsOf(source: QuestionSource, parents: boolean): string[] {
  const text = parents ? source.parentText : source.text
  const cells = ROW_SOURCE.test(source.sourceId) ? cellsOf(text) : null
  if (cells && [...text].length <= WHOLE_ROW_CHARS) return [text]
  if (cells && cells.length >= 2) return cells.map((cell) => cell.line)
  const sentences = sentencesOf(text).filter((sentence) => sentence !== source.heading?.trim())
  return sentences.length > 0 ? sentences : [text]
}

/**
 * The context an answer is written from, within `budget` tokens. A passage is cut into units
 * (sentences; a short row whole): each unit is scored by how much of the question it holds (and a
 * share of its best neighbour's, which it often completes), and units are taken in the order of
 * their chances to hold the answer — 1 / ((1 + the passage's rank) × (1 + the unit's rank in its
 * passage)) — as long as they fit. What is taken is read in text order, "…" where text is left
 * out. The top passage always gets its best unit, cut to the budget if it alone is larger. On
 * JaQuAD and SQuAD dev this keeps 96–99% of the answers whole passages hold in a third to a half of
 * their tokens (docs/models.md).
 */
export function selectContext({
  question,
  sources,
  idf,
  budget,
  countTokens,
  parents,
}: ContextRequest): AnswerContext {
  const score = sentenceScorer(question, idf)
  const passages = sources.map((source, rank) => {
    const units: Unit[] = unitsOf(source, parents).map((text) => ({
      text,
      score: score(text) + (parents && source.text.includes(text) ? MATCHED_BONUS : 0),
      tokens: countTokens(text),
    }))
    const own = units.map((unit) => unit.score)
    units.forEach((unit, i) => {
      unit.score = (own[i] ?? 0) + NEIGHBOUR_SHARE * Math.max(own[i - 1] ?? 0, own[i + 1] ?? 0)
    })
    const headerTokens = countTokens(passageHeader(rank + 1, source))
    return { source, units, headerTokens, chosen: new Set<number>() }
  })
  let remaining = budget
  const take = (passage: (typeof passages)[number], index: number): boolean => {
    const unit = passage.units[index]
    if (!unit || passage.chosen.has(index)) return false
    const cost = unit.tokens + 1 + (passage.chosen.size === 0 ? passage.headerTokens : 0)
    if (cost > remaining) return false
    passage.chosen.add(index)
    remaining -= cost
    return true
  }
  // Every unit competes for the budget by how likely it is to hold the answer: its passage's rank
  // (the top passage answers most often) times its own rank in its passage by how much of the
  // question it holds (the best unit most often, its runners-up much less). A unit too short to
  // say anything alone brings the next one with it.
  const candidates = passages.flatMap((passage, rank) => {
    const order = passage.units
      .map((unit, index) => ({ unit, index }))
      .sort((a, b) => b.unit.score - a.unit.score || a.index - b.index)
    return order.map(({ index }, place) => ({
      passage,
      rank,
      index,
      priority: 1 / ((1 + rank) * (1 + place)),
    }))
  })
  candidates.sort((a, b) => b.priority - a.priority || a.rank - b.rank || a.index - b.index)
  for (const { passage, rank, index } of candidates) {
    if (remaining <= 0) break
    if (take(passage, index)) {
      if ([...(passage.units[index]?.text ?? '')].length < SHORT_UNIT) take(passage, index + 1)
    } else if (rank === 0 && passage.chosen.size === 0) {
      // The top passage's best unit is larger than the whole budget: cut to fit.
      const unit = passage.units[index]
      if (unit) {
        const room = Math.max(budget - passage.headerTokens - 1, 1)
        passage.units[index] = { ...unit, text: truncateToTokens(unit.text, room, countTokens), tokens: room }
        passage.chosen.add(index)
        remaining = 0
      }
    }
  }

  const chosen = passages.filter((passage) => passage.chosen.size > 0)
  return {
    passages: chosen.map((passage) => {
      const indexes = [...passage.chosen].sort((a, b) => a - b)
      // … where text is left out: before, between and after what is read.
      const pieces = indexes.map((index, i) => {
        const gap = i === 0 ? index > 0 : index > (indexes[i - 1] ?? 0) + 1
        return `${gap ? '… ' : ''}${passage.units[index]?.text ?? ''}`
      })
      if ((indexes.at(-1) ?? 0) < passage.units.length - 1) pieces.push('…')
      const tokens =
        passage.headerTokens +
        indexes.reduce((sum, index) => sum + (passage.units[index]?.tokens ?? 0) + 1, 0)
      const separator = ROW_SOURCE.test(passage.source.sourceId) ? '\n' : ' '
      return { source: passage.source, excerpt: pieces.join(separator), tokens }
    }),
    tokens: budget - remaining,
  }
}

/** The first `tokens` tokens' worth of text, by halving (the counter is the only tokenizer known here). */
function truncateToTokens(text: string, tokens: number, countTokens: (text: string) => number): string {
  const characters = [...text]
  let low = 0
  let high = characters.length
  while (low < high) {
    const middle = Math.ceil((low + high) / 2)
    if (countTokens(characters.slice(0, middle).join('')) <= tokens) low = middle
    else high = middle - 1
  }
  return characters.slice(0, low).join('')
}
