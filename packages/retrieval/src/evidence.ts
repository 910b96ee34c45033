import type { Pool } from '@rag/db'
import {
  analyzeQuery,
  inverseDocumentFrequency,
  type PassageMatches,
  passageMatches,
  type QueryAlternate,
  type SynonymTable,
  withAlternates,
} from '@rag/keyword'
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
  synonyms: SynonymTable | null = null,
): Promise<Map<string, number>> {
  return (await questionWords(pool, question, filters, synonyms)).idf
}

export interface QuestionWords {
  idf: Map<string, number>
  /** Words no chunk of the collections searched holds, each with how unseen (1, or less when a synonym of it is seen). */
  unseen: Map<string, number>
  /** Other ways a passage may say its words (synonyms found in the collections searched). */
  alternates: QueryAlternate[]
}

/** The question's words with their IDF, and those no chunk of the collections searched holds. */
export async function questionWords(
  pool: Pool,
  question: string,
  filters: SearchFilters,
  synonyms: SynonymTable | null = null,
): Promise<QuestionWords> {
  const query = analyzeQuery(question, synonyms)
  const { words } = query
  if (words.length === 0) return { idf: new Map(), unseen: new Map(), alternates: [] }
  const scope = statisticsScope(filters)
  const alternateWords = query.alternates.flatMap((alternate) => alternate.words)
  const [stats, n] = await Promise.all([
    keywordStatistics(pool, [...new Set([...words, ...alternateWords])], scope),
    scopedChunkCount(pool, scope),
  ])
  const df = new Map(stats.map((row) => [row.term, row.df]))
  // Only the alternates the collections hold every word of can say anything here.
  const alternates = query.alternates.filter((alternate) => alternate.words.every((word) => df.has(word)))
  const unseen = new Map<string, number>()
  for (const word of words) {
    if (df.has(word)) continue
    // A word never seen whose synonym is seen is seen in part: the passages may say it otherwise.
    const through = Math.max(0, ...alternates.filter((a) => a.of.includes(word)).map((a) => a.weight))
    unseen.set(word, 1 - through)
  }
  return {
    idf: new Map(words.map((word) => [word, inverseDocumentFrequency(df.get(word) ?? 0, n)])),
    unseen,
    alternates,
  }
}

/**
 * Each candidate's evidence and the question's answerability signals over them (in rank order):
 * what a refusal is judged on when no reranker scored the passages; and the words each says.
 */
export async function judgePassages(
  pool: Pool,
  question: string,
  chunkIds: string[],
  filters: SearchFilters,
  synonyms: SynonymTable | null = null,
  judged = chunkIds.length,
  /** How many of the first passages get their matched words (those shown to a reader). */
  explained = chunkIds.length,
) {
  const [{ idf, unseen, alternates }, { rows }] = await Promise.all([
    questionWords(pool, question, filters, synonyms),
    pool.query<{ id: string; terms: string[]; text: string }>(
      `SELECT id::text AS id, terms, concat_ws(E'\n', context, text) AS text FROM chunks WHERE id = ANY($1::bigint[])`,
      [chunkIds],
    ),
  ])
  const byId = new Map(rows.map((row) => [row.id, row]))
  const words = [...idf.keys()]
  // What each passage says of the question, in its own words (the "why" a reader is shown).
  const matches = new Map<string, PassageMatches>(
    chunkIds
      .slice(0, explained)
      .map((id) => [id, passageMatches(byId.get(id)?.text ?? '', words, alternates)]),
  )
  const judgement = answerabilitySignals(
    question,
    idf,
    unseen,
    chunkIds.map((id) => ({
      id,
      // A passage saying the question's words through synonyms holds them (scored as search scores it).
      terms: withAlternates(byId.get(id)?.terms ?? [], alternates).terms,
      text: byId.get(id)?.text ?? '',
    })),
    judged,
  )
  return { ...judgement, matches }
}
