import type { Pool } from '@rag/db'
import { tokenize } from '@rag/keyword'

/**
 * Terms in a row that count as one place in a passage (about two sentences). The question's
 * terms found together there are evidence; the same terms scattered over a long passage about the
 * topic mostly are not: measured on JaQuAD with the gold paragraph removed, windows of 30 refuse
 * 51% of the unanswerable questions at 5% false refusals against 45% for the whole chunk.
 */
export const EVIDENCE_WINDOW = 30

/**
 * The best IDF-weighted share of the question's terms within any EVIDENCE_WINDOW terms in a row
 * of a passage's terms (in text order), 0..1.
 */
export function windowCoverage(
  weights: Map<string, number>,
  terms: string[],
  window = EVIDENCE_WINDOW,
): number {
  let total = 0
  for (const weight of weights.values()) total += weight
  if (total <= 0) return 0
  const inWindow = new Map<string, number>()
  let covered = 0
  let best = 0
  for (let i = 0; i < terms.length; i++) {
    const term = terms[i] as string
    const weight = weights.get(term)
    if (weight !== undefined) {
      const count = inWindow.get(term) ?? 0
      if (count === 0) covered += weight
      inWindow.set(term, count + 1)
    }
    const leaving = i >= window ? (terms[i - window] as string) : undefined
    if (leaving !== undefined && weights.has(leaving)) {
      const count = (inWindow.get(leaving) ?? 1) - 1
      inWindow.set(leaving, count)
      if (count === 0) covered -= weights.get(leaving) ?? 0
    }
    best = Math.max(best, covered)
  }
  return Math.min(1, best / total)
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
  const terms = [...new Set(tokenize(question))]
  if (terms.length === 0 || chunkIds.length === 0) {
    for (const id of chunkIds) coverage.set(id, 0)
    return coverage
  }
  const [{ rows: stats }, { rows: chunks }] = await Promise.all([
    pool.query<{ term: string | null; df: number; n: number }>(
      `SELECT q.term, coalesce(s.df, 0)::float8 AS df, greatest(c.chunks, 1)::float8 AS n
         FROM unnest($1::text[]) AS q(term)
         LEFT JOIN term_stats s ON s.term = q.term CROSS JOIN corpus_stats c`,
      [terms],
    ),
    pool.query<{ id: string; terms: string[] }>(
      'SELECT id::text AS id, terms FROM chunks WHERE id = ANY($1::bigint[])',
      [chunkIds],
    ),
  ])
  const idf = new Map(stats.map((s) => [s.term ?? '', Math.log(1 + (s.n - s.df + 0.5) / (s.df + 0.5))]))
  const termsOf = new Map(chunks.map((chunk) => [chunk.id, chunk.terms]))
  for (const id of chunkIds) {
    coverage.set(id, Math.round(windowCoverage(idf, termsOf.get(id) ?? []) * 1000) / 1000)
  }
  return coverage
}
