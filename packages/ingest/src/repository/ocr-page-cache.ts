import type { Pool } from '@rag/db'
import type { OcrPageCache } from '@rag/parsers'

/** Entries unused this long are dropped (a re-index within it reads no unchanged page again). */
const KEEP_DAYS = 90

/** The OCR page cache in Postgres (migration 0019): every OCR worker shares it. */
export function postgresOcrPageCache(pool: Pool): OcrPageCache {
  return {
    async get(key) {
      const { rows } = await pool.query<{ text: string }>(
        'UPDATE ocr_page_cache SET used_at = now() WHERE key = $1 RETURNING text',
        [key],
      )
      return rows[0]?.text ?? null
    },
    async set(key, text) {
      await pool.query(
        `INSERT INTO ocr_page_cache (key, text) VALUES ($1, $2)
         ON CONFLICT (key) DO UPDATE SET text = excluded.text, used_at = now()`,
        [key, text],
      )
    },
  }
}

/** Drops entries unused for KEEP_DAYS; the number dropped. */
export async function pruneOcrPageCache(pool: Pool, days = KEEP_DAYS): Promise<number> {
  const { rowCount } = await pool.query(
    'DELETE FROM ocr_page_cache WHERE used_at < now() - make_interval(days => $1)',
    [days],
  )
  return rowCount ?? 0
}
