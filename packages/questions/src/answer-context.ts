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
/** Later passages are worth less than the first: their evidence counts this much less per rank. */
const RANK_DECAY = 0.3

interface Unit {
  text: string
  score: number
  tokens: number
}

/** A passage cut into what can be kept or left out: sentences, or a row's `column: value` cells. */
function unitsOf(source: QuestionSource, parents: boolean): string[] {
  const text = parents ? source.parentText : source.text
  const cells = ROW_SOURCE.test(source.sourceId) ? cellsOf(text) : null
  if (cells && cells.length >= 2) return cells.map((cell) => cell.line)
  const sentences = sentencesOf(text).filter((sentence) => sentence !== source.heading?.trim())
  return sentences.length > 0 ? sentences : [text]
}

/**
 * The context an answer is written from, within `budget` tokens: from each passage (best first),
 * first the unit (sentence, or cell of a row) that holds the most of the question, then the units
 * on either side of it (so it reads in context), then the other units that hold the question's
 * words, best first. Whole passages cost 3-10× this for the same answers (docs/models.md). The top
 * passage always gets its best unit, cut to the budget if it alone is larger.
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
    const headerTokens = countTokens(passageHeader(rank + 1, source))
    return { source, units, headerTokens, chosen: new Set<number>(), weight: 1 / (1 + RANK_DECAY * rank) }
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
  // The unit of each passage that answers best (the first of equals), joined by the next when short.
  const cores = passages.map(({ units }) =>
    units.reduce((best, unit, i) => (unit.score > (units[best]?.score ?? -1) ? i : best), 0),
  )
  passages.forEach((passage, rank) => {
    const core = cores[rank] ?? 0
    if (!take(passage, core) && rank === 0) {
      // Larger than the budget alone: the top passage's best unit, cut to fit.
      const unit = passage.units[core]
      if (unit) {
        const room = Math.max(budget - passage.headerTokens - 1, 1)
        passage.units[core] = { ...unit, text: truncateToTokens(unit.text, room, countTokens), tokens: room }
        passage.chosen.add(core)
        remaining = 0
      }
    }
    if (passage.chosen.has(core) && [...(passage.units[core]?.text ?? '')].length < SHORT_UNIT)
      take(passage, core + 1)
  })
  // Then what surrounds each core, nearest first, passage by passage.
  for (const side of [1, -1, 2, -2])
    passages.forEach((passage, rank) => {
      if (passage.chosen.has(cores[rank] ?? 0)) take(passage, (cores[rank] ?? 0) + side)
    })
  // Then any other unit holding the question's words, best (for its passage's rank) first.
  const rest = passages
    .flatMap((passage) =>
      passage.units.map((unit, index) => ({ passage, index, value: unit.score * passage.weight })),
    )
    .filter(({ value }) => value > 0)
    .sort((a, b) => b.value - a.value)
  for (const { passage, index } of rest) if (remaining > 0) take(passage, index)

  const chosen = passages.filter((passage) => passage.chosen.size > 0)
  return {
    passages: chosen.map((passage) => {
      const indexes = [...passage.chosen].sort((a, b) => a - b)
      const pieces = indexes.map((index, i) => {
        const gap = i > 0 && index > (indexes[i - 1] ?? 0) + 1
        return `${gap ? '… ' : ''}${passage.units[index]?.text ?? ''}`
      })
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
