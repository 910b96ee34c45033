import type { Pool } from '../create-pool.ts'

/**
 * How far the kept keyword statistics (term_stats, corpus_stats: per collection, kept by triggers)
 * are from counting the tables again: the terms whose document frequency differs in some
 * collection, and the collections whose chunk or section counts differ. Both 0 when they agree.
 */
export async function keywordStatsMismatches(pool: Pool): Promise<{ terms: number; collections: number }> {
  const { rows } = await pool.query<{ terms: number; collections: number }>(
    `SELECT (SELECT count(*)::int FROM (
               SELECT d.collection, t.term, count(DISTINCT c.id) AS df
                 FROM chunks c JOIN documents d ON d.id = c.document_id,
                      unnest(c.terms || ARRAY(SELECT ' ' || p FROM unnest(c.bigrams) p)) t(term)
                GROUP BY d.collection, t.term) actual
             FULL JOIN (SELECT collection, term, df FROM term_stats WHERE df > 0) kept USING (collection, term)
             WHERE actual.df IS DISTINCT FROM kept.df) AS terms,
            (SELECT count(*)::int FROM (
               SELECT d.collection, count(*) AS chunks FROM chunks c JOIN documents d ON d.id = c.document_id
                GROUP BY d.collection) actual
             FULL JOIN (SELECT collection, chunks FROM corpus_stats WHERE chunks > 0) kept USING (collection)
             FULL JOIN (SELECT d.collection, count(*) AS sections FROM sections s
                          JOIN documents d ON d.id = s.document_id GROUP BY d.collection) s USING (collection)
             FULL JOIN (SELECT collection, sections AS kept_sections FROM corpus_stats WHERE sections > 0) ks
                  USING (collection)
             WHERE actual.chunks IS DISTINCT FROM kept.chunks
                OR s.sections IS DISTINCT FROM ks.kept_sections) AS collections`,
  )
  return rows[0] ?? { terms: -1, collections: -1 }
}
