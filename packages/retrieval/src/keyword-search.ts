import type { Pool } from '@rag/db'
import { tokenize } from '@rag/keyword'
import type { RankedChunk, SearchFilters } from './ranked-chunk.ts'

export interface KeywordSearchOptions extends SearchFilters {
  limit: number
  k1?: number
  b?: number
  /** Chunks scored at most; candidates come from the query's rarest terms first. */
  maxCandidates?: number
}

/**
 * Okapi BM25 over the chunks' terms, with document frequencies and corpus size kept by triggers
 * (term_stats, corpus_stats) instead of counted per query. Candidates are the chunks holding any
 * of the query's rarer terms (terms in more than a fifth of the corpus add little to BM25 and
 * would pull in most chunks); every query term still counts in the score.
 */
export async function keywordSearch(
  pool: Pool,
  query: string,
  options: KeywordSearchOptions,
): Promise<RankedChunk[]> {
  const terms = [...new Set(tokenize(query))]
  if (terms.length === 0) return []
  const { limit, k1 = 1.2, b = 0.75, maxCandidates = 2000, collection } = options
  const { rows } = await pool.query<{ chunkId: string; score: number }>(
    `WITH corpus AS (
       SELECT greatest(chunks, 1)::float8 AS n, greatest(terms::float8 / greatest(chunks, 1), 1) AS avgdl FROM corpus_stats
     ), q AS (
       SELECT s.term, ln(1 + (c.n - s.df + 0.5) / (s.df + 0.5)) AS idf, s.df
         FROM term_stats s, corpus c WHERE s.term = ANY($1::text[]) AND s.df > 0
     ), rare AS (
       SELECT coalesce(array_agg(term), '{}') AS terms FROM (
         SELECT term FROM q, corpus c WHERE q.df <= c.n / 5
         UNION ALL (SELECT term FROM q ORDER BY df LIMIT 1)
       ) r
     ), candidates AS (
       SELECT ch.id, ch.terms, ch.term_count FROM chunks ch
         JOIN documents d ON d.id = ch.document_id AND d.active_hash = ch.content_hash
        WHERE ch.terms && (SELECT terms FROM rare) AND ($5::text IS NULL OR d.collection = $5)
        LIMIT $6
     )
     SELECT cand.id::text AS "chunkId",
            sum(q.idf * tf.n * ($3::float8 + 1) / (tf.n + $3::float8 * (1 - $4::float8 + $4::float8 * cand.term_count / c.avgdl)))::float8 AS score
       FROM candidates cand CROSS JOIN corpus c
       JOIN q ON q.term = ANY(cand.terms)
       CROSS JOIN LATERAL (SELECT count(*)::float8 AS n FROM unnest(cand.terms) t WHERE t = q.term) tf
      GROUP BY cand.id
      ORDER BY score DESC, cand.id
      LIMIT $2`,
    [terms, limit, k1, b, collection ?? null, maxCandidates],
  )
  return rows
}
