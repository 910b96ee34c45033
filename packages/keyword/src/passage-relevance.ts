import { type AnswerKind, answerKindOf, isAnswerKindTerm } from './answer-kind.ts'
import { type QueryAlternate, queryAlternates, withAlternates } from './synonyms/query-alternates.ts'
import type { SynonymTable } from './synonyms/synonym-table.ts'
import { analyzeText } from './tokenize.ts'
import { windowCoverage } from './window-coverage.ts'

/** A question as keyword search uses it. */
export interface QueryTerms {
  /** Distinct words, in the question's order. */
  words: string[]
  /** Distinct character pairs of its Japanese. */
  bigrams: string[]
  /** Neighbouring words of the question, in order: a passage holding them side by side says the same thing. */
  pairs: [string, string][]
  kind: AnswerKind | null
  /** Other ways a passage may say some of its words (synonyms), counted at their weight. */
  alternates: QueryAlternate[]
}

/** A question's terms; with a synonym table, the alternates of its words too. */
export function analyzeQuery(question: string, synonyms: SynonymTable | null = null): QueryTerms {
  const { words, bigrams } = analyzeText(question, { question: true })
  const pairs: [string, string][] = []
  for (let i = 0; i + 1 < words.length; i++) {
    const [first, second] = [words[i] as string, words[i + 1] as string]
    if (first !== second) pairs.push([first, second])
  }
  const distinct = [...new Set(words)]
  return {
    words: distinct,
    bigrams: [...new Set(bigrams)],
    pairs,
    kind: answerKindOf(question),
    alternates: queryAlternates(question, distinct, synonyms),
  }
}

/** What scoring needs of the corpus: its size, average lengths and the query terms' frequencies. */
export interface RelevanceStatistics {
  chunks: number
  averageWords: number
  averageBigrams: number
  averageParentWords: number
  /** Chunks holding each query word / bigram. */
  wordDf: Map<string, number>
  bigramDf: Map<string, number>
}

/** A candidate chunk as scoring sees it. */
export interface PassageEvidence {
  id: string
  /** The chunk's words in text order. */
  words: string[]
  /** Occurrences of each query bigram in the chunk, in QueryTerms.bigrams' order. */
  bigramTf: number[]
  bigramCount: number
  /** Occurrences of each query word in the chunk's parent section, in QueryTerms.words' order. */
  parentTf: number[]
  parentWords: number
}

/** BM25's saturation and length normalisation (the BM25_K1 and BM25_B settings). */
export interface Bm25Parameters {
  k1: number
  b: number
}

export interface RelevanceWeights {
  /** BM25 of the character pairs, beside the words' (compounds, inflections the analyser missed). */
  bigrams: number
  /** BM25 of the parent section: a chunk is judged with the section it belongs to. */
  parent: number
  /** Terms in a row that count as one place. */
  window: number
  /** The rest are shares of the query's IDF mass: in the best window, anywhere in the chunk, as the question's word pairs, near a term of the asked kind. */
  proximity: number
  coverage: number
  phrase: number
  answerKind: number
}

/**
 * Chosen on JaQuAD dev, SQuAD dev (first 2,000 questions) and SciFact, each part kept only where it
 * measured better (`pnpm --filter @rag/keyword measure` prints each one's effect; docs/search.md).
 */
export const DEFAULT_RELEVANCE: RelevanceWeights = {
  bigrams: 0.5,
  parent: 0.75,
  window: 15,
  proximity: 1,
  coverage: 1,
  phrase: 0.6,
  answerKind: 0.6,
}

export const inverseDocumentFrequency = (df: number, n: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5))

const bm25 = (tf: number, length: number, average: number, idf: number, { k1, b }: Bm25Parameters) =>
  tf > 0 ? (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * length) / Math.max(average, 1))) : 0

/** The share of the question's IDF mass within ±window/2 terms of a term of the kind asked for. */
export function coverageNearKind(
  kind: AnswerKind,
  idf: Map<string, number>,
  words: string[],
  window: number,
) {
  const half = Math.floor(window / 2)
  let best = 0
  for (let i = 0; i < words.length; i++) {
    if (!isAnswerKindTerm(kind, words[i] as string, words[i - 1])) continue
    best = Math.max(best, windowCoverage(idf, words.slice(Math.max(0, i - half), i + half + 1), window))
  }
  return best
}

export function phraseShare(pairs: [string, string][], idf: Map<string, number>, words: string[]) {
  if (pairs.length === 0) return 0
  const adjacent = new Set<string>()
  for (let i = 0; i + 1 < words.length; i++) adjacent.add(`${words[i]}\u0000${words[i + 1]}`)
  let total = 0
  let found = 0
  for (const [first, second] of pairs) {
    const weight = ((idf.get(first) ?? 0) + (idf.get(second) ?? 0)) / 2
    total += weight
    if (adjacent.has(`${first}\u0000${second}`)) found += weight
  }
  return total > 0 ? found / total : 0
}

/**
 * Scores candidate chunks for a query, best first: BM25 of the chunk's words, plus its character
 * pairs' and its parent section's BM25, plus evidence of the question's words together (the best
 * window, their share in the chunk, its word pairs side by side, near a date or number when it asks
 * for one), each in units of the question's IDF mass so the parts keep their proportions for any
 * question length.
 */
export function scorePassages(
  query: QueryTerms,
  stats: RelevanceStatistics,
  passages: PassageEvidence[],
  parameters: Bm25Parameters,
  weights: RelevanceWeights = DEFAULT_RELEVANCE,
): { id: string; score: number }[] {
  const idf = new Map(
    query.words.map((word) => [word, inverseDocumentFrequency(stats.wordDf.get(word) ?? 0, stats.chunks)]),
  )
  const bigramIdf = query.bigrams.map((bigram) =>
    inverseDocumentFrequency(stats.bigramDf.get(bigram) ?? 0, stats.chunks),
  )
  let idfMass = 0
  for (const value of idf.values()) idfMass += value
  return passages
    .map((passage) => {
      // A question word said through a synonym counts as the word, at the synonym's weight.
      const { terms: words, discount } = withAlternates(passage.words, query.alternates)
      const tf = new Map<string, number>()
      for (const word of words) if (idf.has(word)) tf.set(word, (tf.get(word) ?? 0) + 1)
      for (const [word, less] of discount) tf.set(word, Math.max(0, (tf.get(word) ?? 0) - less))
      let score = 0
      query.words.forEach((word, i) => {
        const wordIdf = idf.get(word) ?? 0
        score += bm25(tf.get(word) ?? 0, words.length, stats.averageWords, wordIdf, parameters)
        score +=
          weights.parent *
          bm25(passage.parentTf[i] ?? 0, passage.parentWords, stats.averageParentWords, wordIdf, parameters)
      })
      query.bigrams.forEach((_, i) => {
        score +=
          weights.bigrams *
          bm25(
            passage.bigramTf[i] ?? 0,
            passage.bigramCount,
            stats.averageBigrams,
            bigramIdf[i] ?? 0,
            parameters,
          )
      })
      if (idfMass > 0 && tf.size > 0) {
        let evidence =
          weights.proximity * windowCoverage(idf, words, weights.window) +
          weights.coverage * windowCoverage(idf, words, Number.POSITIVE_INFINITY) +
          weights.phrase * phraseShare(query.pairs, idf, words)
        if (query.kind)
          evidence += weights.answerKind * coverageNearKind(query.kind, idf, words, weights.window)
        score += idfMass * evidence
      }
      return { id: passage.id, score }
    })
    .sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
}
