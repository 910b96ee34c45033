import type { Pool } from '@rag/db'
import { tokenize } from '@rag/keyword'

/**
 * How much of the question a passage covers, 0..1: the IDF-weighted share of the question's terms
 * that occur in the chunk. Terms the corpus has never seen weigh the most, so a question about
 * something the documents do not mention scores near 0 whatever the rankers say. This is the
 * evidence behind refusal when no reranker scores the passages.
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
  const total = [...idf.values()].reduce((sum, value) => sum + value, 0)
  const termsOf = new Map(chunks.map((chunk) => [chunk.id, new Set(chunk.terms)]))
  for (const id of chunkIds) {
    const present = termsOf.get(id) ?? new Set<string>()
    let covered = 0
    for (const [term, weight] of idf) if (present.has(term)) covered += weight
    coverage.set(id, total > 0 ? Math.round((covered / total) * 1000) / 1000 : 0)
  }
  return coverage
}
