import {
  type AnswerType,
  answerTypeOf,
  asksYesNo,
  holdsType,
  sentencesOf,
  shortAnswerIn,
} from '@rag/answer-span'

export { sentencesOf }

import {
  analyzeQuery,
  analyzeText,
  isAnswerKindTerm,
  type QueryAlternate,
  windowCoverage,
  withAlternates,
} from '@rag/keyword'
import type { Citation, QuestionSource } from './question-store.ts'
import { answerCellByColumn } from './row-answer-cell.ts'
import { cellsOf, ROW_SOURCE } from './row-cells.ts'

export { cellsOf, ROW_SOURCE }

/** A sentence this short (a heading, 「はい。」) says too little alone: the next one joins it. */
const SHORT_SENTENCE = 20
/** Share of the question's IDF mass a sentence holding a term of the asked kind (a date, a number) gains. */
const KIND_BONUS = 0.25

/**
 * How much of the question a piece of text (a sentence, a cell) holds: the share of the question's
 * IDF mass among its words, plus a bonus when it holds a term of the kind asked for (a date, a
 * number). The same measure picks the extractive answer and the LLM's context.
 */
export function sentenceScorer(
  question: string,
  idf: Map<string, number>,
  alternates: QueryAlternate[] = [],
): (text: string) => number {
  const query = analyzeQuery(question)
  const weights = new Map(query.words.map((word) => [word, idf.get(word) ?? 1]))
  return (text) => {
    // A sentence saying the question's words through synonyms holds them.
    const words = withAlternates(analyzeText(text).words, alternates).terms
    let score = windowCoverage(weights, words, Number.POSITIVE_INFINITY)
    if (query.kind && words.some((word, i) => isAnswerKindTerm(query.kind ?? 'number', word, words[i - 1])))
      score += KIND_BONUS
    return score
  }
}

export interface Extract {
  answer: string
  /** Pieces of the passage's text the answer was taken from, to mark where it stands. */
  quotes: string[]
  /**
   * A table row's cell whose column says what is asked (保管場所 for どこ, Deposit for "the
   * deposit"): the short answer, with the cells naming its row and its column as the evidence.
   */
  cell?: { value: string; evidence: string }
}

/**
 * The part of a passage that answers: for a spreadsheet row, its answer cell (see below); otherwise
 * the sentence that holds the most of the
 * question's IDF mass, preferring one with a date or number when the question asks for one (a
 * sentence that short joins the next). The passage stays the source; this is what is read first.
 */
export function extractAnswer(
  question: string,
  passage: Pick<QuestionSource, 'text' | 'sourceId' | 'heading'>,
  idf: Map<string, number>,
  alternates: QueryAlternate[] = [],
): Extract {
  const coverage = sentenceScorer(question, idf, alternates)
  const cells = ROW_SOURCE.test(passage.sourceId) ? cellsOf(passage.text) : null
  if (cells && cells.length >= 2) {
    // The longest cell is the answer column (an FAQ's answer, a product's description). When the
    // question matches another cell (the question column), that whole cell answers; when it
    // matches the answer cell itself, the sentence of it that holds the question does.
    const scores = cells.map((cell) => coverage(cell.value))
    const asked = scores.indexOf(Math.max(...scores))
    const longest = cells.reduce(
      (best, cell, i) => (cell.value.length > (cells[best]?.value.length ?? 0) ? i : best),
      0,
    )
    // A column that says what is asked (保管場所 for どこ, 担当者 for 誰) answers over the longest.
    const byColumn = answerCellByColumn(question, cells, asked)
    const answer = cells[byColumn ?? longest] ?? cells[0]
    const subject = cells[asked]
    if (answer && byColumn !== null && !isProse(answer.value)) {
      // The cell answers; the cell naming the row (the one the question names) and the cell's own
      // column are its evidence: 「品名: プロジェクター EP-100 / 保管場所: 2階会議室B」.
      const evidence = subject && subject !== answer ? `${subject.line} / ${answer.line}` : answer.line
      return { answer: answer.value, quotes: [answer.line], cell: { value: answer.value, evidence } }
    }
    // A document table's row no column of which names what is asked is read whole (its longest
    // cell is a description, not an answer), unless that cell is written prose (an FAQ table).
    const documentRow = !passage.text.includes('\n')
    if (answer && documentRow && byColumn === null && !isProse(answer.value))
      return bestSentences(passage.text, passage.heading, coverage)
    if (answer && asked !== (byColumn ?? longest)) return { answer: answer.value, quotes: [answer.line] }
    if (answer) return bestSentences(answer.value, null, coverage)
  }
  return bestSentences(passage.text, passage.heading, coverage)
}

/** The sentence of a text with the best score (the first of equals), joined by the next when short. */
function bestSentences(text: string, heading: string | null, score: (text: string) => number): Extract {
  const sentences = sentencesOf(text).filter((sentence) => sentence !== heading?.trim())
  if (sentences.length === 0) return { answer: text, quotes: [text] }
  let best = 0
  let bestScore = -1
  sentences.forEach((sentence, i) => {
    const value = score(sentence)
    if (value > bestScore) {
      best = i
      bestScore = value
    }
  })
  const quotes = [sentences[best] as string]
  const next = sentences[best + 1]
  if ([...(quotes[0] ?? '')].length < SHORT_SENTENCE && next) quotes.push(next)
  return { answer: quotes.join(' '), quotes }
}

/** A row's answer cell this long, or ending a sentence, is written prose (an FAQ's answer), not a value. */
const PROSE_CELL = 24
const isProse = (cell: string) => [...cell].length >= PROSE_CELL || /[。！？!?]|\.(\s|$)/.test(cell)

/** What an answering cell is: what the question asks, when it holds that; else what its value looks like. */
function cellType(asked: AnswerType, value: string): AnswerType {
  const generic = asked === 'thing' || asked === 'term'
  if (!generic && holdsType(value, asked)) return asked
  if (/[$€£¥￥]|円|ドル|ユーロ|\b(USD|JPY|EUR)\b/.test(value)) return 'money'
  if (/^[^\p{L}]*\d[\d,.]*\s*\p{L}{0,6}$/u.test(value.trim())) return 'number'
  return generic ? asked : 'thing'
}

/** A span this close to its sentence's length says nothing the sentence does not. */
const SPAN_SHARE_OF_SENTENCE = 0.8

/** A short answer and the sentence it stands in, which the answer quotes. */
export interface SpanAnswer {
  span: string
  sentence: string
  /** The kind of answer it is (answer-type.ts): a date, a number with its unit, a name, yes/no… */
  type: AnswerType
  /** The passage's text to mark, when not the sentence itself (a row's answer cell). */
  quotes?: string[]
}

/** The passage's sentence says the thing asked about is not stated: no answer, not a "no". */
export const NOT_STATED = 'not-stated' as const

/**
 * The short answer a passage gives, when the span model is sure of one: a number with its unit,
 * a date, a name — looked for over the passage's sentences, so the sentence quoted is the one the
 * span stands in — or a yes or no, decided by the extract's own sentences. A spreadsheet's answer
 * cell answers alone when it is a value; when it is prose (an FAQ's answer) its sentences are.
 */
export function spanOf(
  question: string,
  passage: Pick<QuestionSource, 'sourceId' | 'text' | 'heading'>,
  extract: Extract,
): SpanAnswer | typeof NOT_STATED | null {
  const yesNo = asksYesNo(question)
  let sentences: string[]
  if (ROW_SOURCE.test(passage.sourceId)) {
    // A row's cell its column says answers (倉庫B棚3, $150) is the short answer; a value cell
    // chosen otherwise answers alone; an FAQ's written answer is prose, and its short answer
    // (月額480円, いいえ) is looked for in its sentences.
    if (extract.cell && !yesNo) {
      const type = cellType(answerTypeOf(question), extract.cell.value)
      return { span: extract.cell.value, sentence: extract.cell.evidence, type, quotes: extract.quotes }
    }
    // A row read whole (no column says what is asked) answers as it stands: a span the model
    // picks among its cells is as likely the row's name as what was asked.
    if (!isProse(extract.answer) || extract.answer === passage.text) return null
    sentences = sentencesOf(extract.answer)
  } else
    sentences = yesNo
      ? extract.quotes
      : sentencesOf(passage.text).filter((sentence) => sentence !== passage.heading?.trim())
  const found = shortAnswerIn(question, sentences)
  if (found?.polarity === 'not-stated') return NOT_STATED
  const sentence = found ? sentences[found.sentence] : undefined
  if (!found || sentence === undefined) return null
  if ([...found.text].length >= SPAN_SHARE_OF_SENTENCE * [...sentence].length) return null
  return { span: found.text, sentence: yesNo ? extract.answer : sentence, type: found.type }
}

/**
 * The span first, its sentence (as written, so it reads as the passage's own words) and source
 * after: 「3年（保証期間は購入日から3年です。 — guide.pdf:p5）」.
 */
export function withEvidence(span: string, sentence: string, sourceId: string): string {
  return /[\u3040-\u30ff\u4e00-\u9fff]/u.test(sentence)
    ? `${span}（${sentence} — ${sourceId}）`
    : `${span} (${sentence} — ${sourceId})`
}

/**
 * The extractive answer of a question's sources: the best passage's answering part, citing it,
 * led by its short answer when there is one (the citation's `span`, of its `spanType`). A yes/no
 * question whose best passage says the thing is not stated is refused: the documents do not say.
 */
export function extractiveAnswerOf(
  question: string,
  sources: QuestionSource[],
  idf: Map<string, number>,
  alternates: QueryAlternate[] = [],
): { answer: string | null; refused: boolean; citations: Citation[] } {
  const top = sources[0]
  if (!top) return { answer: null, refused: false, citations: [] }
  const extract = extractAnswer(question, top, idf, alternates)
  const found = spanOf(question, top, extract)
  if (found === NOT_STATED) return { answer: null, refused: true, citations: [] }
  if (found === null) {
    const citation: Citation = { marker: top.rank, sourceId: top.sourceId, quotes: extract.quotes }
    return { answer: extract.answer, refused: false, citations: [citation] }
  }
  const quotes = found.quotes ?? (found.sentence === extract.answer ? extract.quotes : [found.sentence])
  return {
    answer: withEvidence(found.span, found.sentence, top.sourceId),
    refused: false,
    citations: [{ marker: top.rank, sourceId: top.sourceId, quotes, span: found.span, spanType: found.type }],
  }
}
