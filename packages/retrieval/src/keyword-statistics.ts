import type { Pool } from '@rag/db'
import type { SearchFilters } from './ranked-chunk.ts'

/**
 * The collections whose keyword statistics a search, or a judgement of its passages, reads:
 * exactly the ones it searches. BM25's document frequencies and corpus size, and the words "the
 * library has never seen", are counted per collection (migration 0018), so what one caller's
 * scores and refusals say never depends on — nor tells of — a collection it does not read.
 * null: every collection (no limit).
 */
export function statisticsScope({ collection, within }: SearchFilters): string[] | null {
  if (collection !== undefined) return !within || within.includes(collection) ? [collection] : []
  return within ?? null
}

export interface ScopedTermStat {
  term: string
  /** Chunks holding the term, summed over the scope's collections. */
  df: number
  /** Chunks in the scope (at least 1). */
  n: number
  avgdl: number
  avgBigrams: number
  avgParent: number
}

/**
 * The terms' document frequencies and the corpus figures BM25 and passage scoring need, over the
 * scope's collections (terms no chunk of the scope holds are left out).
 */
export async function keywordStatistics(
  pool: Pick<Pool, 'query'>,
  terms: string[],
  scope: string[] | null,
): Promise<ScopedTermStat[]> {
  const { rows } = await pool.query<ScopedTermStat>(
    `SELECT s.term, s.df::float8 AS df, greatest(c.chunks, 1)::float8 AS n,
            greatest(c.terms::float8 / greatest(c.chunks, 1), 1) AS avgdl,
            greatest(c.bigrams::float8 / greatest(c.chunks, 1), 1) AS "avgBigrams",
            greatest(c.section_terms::float8 / greatest(c.sections, 1), 1) AS "avgParent"
       FROM (SELECT term, sum(df) AS df FROM term_stats
              WHERE term = ANY($1::text[]) AND ($2::text[] IS NULL OR collection = ANY($2::text[]))
              GROUP BY term HAVING sum(df) > 0) s
      CROSS JOIN (SELECT coalesce(sum(chunks), 0) AS chunks, coalesce(sum(terms), 0) AS terms,
                         coalesce(sum(bigrams), 0) AS bigrams, coalesce(sum(sections), 0) AS sections,
                         coalesce(sum(section_terms), 0) AS section_terms
                    FROM corpus_stats WHERE $2::text[] IS NULL OR collection = ANY($2::text[])) c`,
    [terms, scope],
  )
  return rows
}

/** Chunks in the scope's collections (at least 1: a divisor). */
export async function scopedChunkCount(pool: Pick<Pool, 'query'>, scope: string[] | null): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT greatest(coalesce(sum(chunks), 0), 1)::float8 AS n FROM corpus_stats
      WHERE $1::text[] IS NULL OR collection = ANY($1::text[])`,
    [scope],
  )
  return rows[0]?.n ?? 1
}
