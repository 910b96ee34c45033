import { type Pool, withTransaction } from '@rag/db'
import { ANALYZER_VERSION, analyzeText } from '@rag/keyword'
import type { Logger } from '@rag/log'

// Only one process re-analyses at a time; the others carry on storing new chunks meanwhile.
const REANALYZE_LOCK = 727_002

const termCounts = (terms: string[]) => {
  const tf: Record<string, number> = {}
  for (const term of terms) tf[term] = (tf[term] ?? 0) + 1
  return tf
}

async function reanalyzeRows(
  pool: Pool,
  table: 'sections' | 'chunks',
  { batchSize, isClosing }: { batchSize: number; isClosing: () => boolean },
): Promise<number> {
  let after = '0'
  let done = 0
  for (;;) {
    if (isClosing()) return done
    const { rows } = await pool.query<{ id: string; text: string }>(
      `SELECT id::text AS id, text FROM ${table} WHERE id > $1 ORDER BY id LIMIT $2`,
      [after, batchSize],
    )
    const last = rows.at(-1)
    if (!last) return done
    // Analysed here, between statements: no transaction is open while the CPU works.
    const analysed = rows.map(({ id, text }) => ({ id, ...analyzeText(text) }))
    if (table === 'sections') {
      await pool.query(
        `UPDATE sections s SET term_tf = r."termTf", term_count = r."termCount"
           FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, "termTf" jsonb, "termCount" int) WHERE s.id = r.id`,
        [
          JSON.stringify(
            analysed.map((a) => ({ id: a.id, termTf: termCounts(a.words), termCount: a.words.length })),
          ),
        ],
      )
    } else {
      await pool.query(
        `UPDATE chunks c SET terms = r.terms, term_count = r."termCount", bigrams = r.bigrams, bigram_count = r."bigramCount"
           FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, terms text[], "termCount" int, bigrams text[], "bigramCount" int)
          WHERE c.id = r.id`,
        [
          JSON.stringify(
            analysed.map((a) => ({
              id: a.id,
              terms: a.words,
              termCount: a.words.length,
              bigrams: [...new Set(a.bigrams)].sort(),
              bigramCount: a.bigrams.length,
            })),
          ),
        ],
      )
    }
    done += rows.length
    after = last.id
  }
}

/**
 * Brings a keyword index made by an older analyser (keyword_index.analyzer) up to this one: every
 * section's and chunk's terms analysed again, a batch at a time while search goes on (it mixes old
 * and new terms meanwhile), then the statistics recounted from the rows in one transaction and the
 * analyser recorded. Returns what it did, or null when there was nothing to do or another process
 * holds the work. Stops between batches when the process is closing; the next start resumes.
 */
export async function reanalyzeKeywordIndex(
  pool: Pool,
  {
    logger,
    batchSize = 500,
    isClosing = () => false,
  }: { logger: Logger; batchSize?: number; isClosing?: () => boolean },
): Promise<{ from: string; sections: number; chunks: number } | null> {
  const lockClient = await pool.connect()
  try {
    const { rows: locked } = await lockClient.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock($1) AS locked',
      [REANALYZE_LOCK],
    )
    if (!locked[0]?.locked) return null
    try {
      const { rows } = await pool.query<{ analyzer: string }>('SELECT analyzer FROM keyword_index')
      const from = rows[0]?.analyzer ?? ''
      if (from === ANALYZER_VERSION) return null
      // A brand-new database (the migration names the first analyser) has nothing to re-analyse:
      // it is this analyser's from the start, and nothing is said about an older one.
      const { rows: held } = await pool.query<{ any: boolean }>(
        'SELECT EXISTS (SELECT 1 FROM chunks) OR EXISTS (SELECT 1 FROM sections) AS any',
      )
      if (!held[0]?.any) {
        await pool.query('UPDATE keyword_index SET analyzer = $1', [ANALYZER_VERSION])
        return null
      }
      logger.info({ from, to: ANALYZER_VERSION }, 'keyword index made by an older analyser: re-analysing it')
      const sections = await reanalyzeRows(pool, 'sections', { batchSize, isClosing })
      const chunks = await reanalyzeRows(pool, 'chunks', { batchSize, isClosing })
      if (isClosing()) return null
      await withTransaction(pool, async (client) => {
        // Each collection's counts made again (migration 0018); it locks them until commit.
        await client.query('SELECT recount_keyword_stats()')
        await client.query('UPDATE keyword_index SET analyzer = $1', [ANALYZER_VERSION])
      })
      logger.info({ sections, chunks, analyzer: ANALYZER_VERSION }, 'keyword index re-analysed')
      return { from, sections, chunks }
    } finally {
      await lockClient.query('SELECT pg_advisory_unlock($1)', [REANALYZE_LOCK])
    }
  } finally {
    lockClient.release()
  }
}
