import type { Pool } from '@rag/db'
import { analyzeQuery, inverseDocumentFrequency, windowCoverage } from '@rag/keyword'
import { answerabilitySignals } from './answerability-signals.ts'
import { EVIDENCE_WINDOW } from './evidence-window.ts'

/**
 * Each word of the question with its IDF in the corpus: words the corpus has never seen weigh the
 * most.
 */
export async function questionWordWeights(pool: Pool, question: string): Promise<Map<string, number>> {
  return (await questionWords(pool, question)).idf
}

/** The question's words with their IDF, and those no chunk holds. */
export async function questionWords(
  pool: Pool,
  question: string,
): Promise<{ idf: Map<string, number>; unseen: Set<string> }> {
  const words = analyzeQuery(question).words
  if (words.length === 0) return { idf: new Map(), unseen: new Set() }
  const { rows } = await pool.query<{ term: string; df: number; n: number }>(
    `SELECT q.term, coalesce(s.df, 0)::float8 AS df, greatest(c.chunks, 1)::float8 AS n
       FROM unnest($1::text[]) AS q(term)
       LEFT JOIN term_stats s ON s.term = q.term CROSS JOIN corpus_stats c`,
    [words],
  )
  return {
    idf: new Map(rows.map((row) => [row.term, inverseDocumentFrequency(row.df, row.n)])),
    unseen: new Set(rows.filter((row) => row.df === 0).map((row) => row.term)),
  }
}

/**
 * Each candidate's evidence and the question's answerability signals over them (in rank order):
 * what a refusal is judged on when no reranker scored the passages.
 */
export async function judgePassages(pool: Pool, question: string, chunkIds: string[]) {
  const [{ idf, unseen }, { rows }] = await Promise.all([
    questionWords(pool, question),
    pool.query<{ id: string; terms: string[]; text: string }>(
      'SELECT id::text AS id, terms, text FROM chunks WHERE id = ANY($1::bigint[])',
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

/**
 * How much of the question a passage covers, 0..1 (windowCoverage). Terms the corpus has never
 * seen weigh the most, so a question about something the documents do not mention scores near 0
 * whatever the rankers say. This is the evidence behind refusal when no reranker scores the
 * passages (REFUSAL_THRESHOLD).
 */
export async function termCoverage(
  pool: Pool,
  question: string,
  chunkIds: string[],
): Promise<Map<string, number>> {
  const coverage = new Map<string, number>()
  const [idf, { rows: chunks }] = await Promise.all([
    questionWordWeights(pool, question),
    pool.query<{ id: string; terms: string[] }>(
      'SELECT id::text AS id, terms FROM chunks WHERE id = ANY($1::bigint[])',
      [chunkIds],
    ),
  ])
  const termsOf = new Map(chunks.map((chunk) => [chunk.id, chunk.terms]))
  for (const id of chunkIds) {
    coverage.set(id, Math.round(windowCoverage(idf, termsOf.get(id) ?? [], EVIDENCE_WINDOW) * 1000) / 1000)
  }
  return coverage
}
