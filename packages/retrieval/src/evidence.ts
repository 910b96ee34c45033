import type { Pool } from '@rag/db'
import { analyzeQuery, inverseDocumentFrequency } from '@rag/keyword'
import { answerabilitySignals } from './answerability-signals.ts'
import { keywordStatistics, scopedChunkCount, statisticsScope } from './keyword-statistics.ts'
import type { SearchFilters } from './ranked-chunk.ts'

/**
 * Each word of the question with its IDF in the collections searched (`filters`, see
 * statisticsScope): words they have never seen weigh the most.
 */
export async function questionWordWeights(
  pool: Pool,
  question: string,
  filters: SearchFilters,
): Promise<Map<string, number>> {
  return (await questionWords(pool, question, filters)).idf
}

/** The question's words with their IDF, and those no chunk of the collections searched holds. */
export async function questionWords(
  pool: Pool,
  question: string,
  filters: SearchFilters,
): Promise<{ idf: Map<string, number>; unseen: Set<string> }> {
  const words = analyzeQuery(question).words
  if (words.length === 0) return { idf: new Map(), unseen: new Set() }
  const scope = statisticsScope(filters)
  const [stats, n] = await Promise.all([keywordStatistics(pool, words, scope), scopedChunkCount(pool, scope)])
  const df = new Map(stats.map((row) => [row.term, row.df]))
  return {
    idf: new Map(words.map((word) => [word, inverseDocumentFrequency(df.get(word) ?? 0, n)])),
    unseen: new Set(words.filter((word) => !df.has(word))),
  }
}

/**
 * Each candidate's evidence and the question's answerability signals over them (in rank order):
 * what a refusal is judged on when no reranker scored the passages.
 */
export async function judgePassages(
  pool: Pool,
  question: string,
  chunkIds: string[],
  filters: SearchFilters,
) {
  const [{ idf, unseen }, { rows }] = await Promise.all([
    questionWords(pool, question, filters),
    pool.query<{ id: string; terms: string[]; text: string }>(
      `SELECT id::text AS id, terms, concat_ws(E'\n', context, text) AS text FROM chunks WHERE id = ANY($1::bigint[])`,
      [chunkIds],
    ),
  ])
  const byId = new Map(rows.map((row) => [row.id, row]))
  return answerabilitySignals(
    question,
    idf,
    unseen,
    chunkIds.map((id) => ({ id, terms: byId.get(id)?.terms ?? [], text: byId.get(id)?.text ?? '' })),
  )
}
