import type { Pool } from '@rag/db'

/**
 * Fills a schema with `count` ready chunks whose terms follow a Zipf distribution over a
 * `vocabulary`-term vocabulary (like words in text), `termsPerChunk` terms each, in one statement
 * per batch so the statistics triggers see realistic bulk inserts.
 */
export async function insertSyntheticChunks(
  pool: Pool,
  {
    count,
    vocabulary = 50_000,
    termsPerChunk = 60,
    batch = 20_000,
  }: { count: number; vocabulary?: number; termsPerChunk?: number; batch?: number },
): Promise<void> {
  const documentId = '00000000-0000-4000-8000-0000000000b1'
  await pool.query(
    `INSERT INTO documents (id, filename, source_type, stored_path, content_hash, size_bytes, status, active_hash)
     VALUES ($1, 'synthetic.txt', 'text', '-', 'h', 0, 'ready', 'h') ON CONFLICT DO NOTHING`,
    [documentId],
  )
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO sections (document_id, content_hash, ordinal, source_id, text) VALUES ($1, 'h', 0, 'synthetic.txt', '')
     ON CONFLICT (document_id, content_hash, ordinal) DO UPDATE SET text = '' RETURNING id`,
    [documentId],
  )
  const sectionId = rows[0]?.id
  for (let start = 0; start < count; start += batch) {
    const size = Math.min(batch, count - start)
    // Term rank r has probability ∝ 1/r: floor(vocabulary ^ random()) is a cheap Zipf-like draw.
    await pool.query(
      `INSERT INTO chunks (document_id, content_hash, section_id, chunk_index, source_id, text, text_hash, terms, term_count)
       SELECT $1, 'h', $2, $3 + g, 'synthetic.txt:c' || ($3 + g), '', md5(($3 + g)::text),
              ARRAY(SELECT 't' || floor(power($5::float8, random()))::int FROM generate_series(1, $6) WHERE g > 0), $6
         FROM generate_series(1, $4) g`,
      [documentId, sectionId, start, size, vocabulary, termsPerChunk],
    )
  }
  await pool.query('ANALYZE chunks')
}

/** Queries of 2–5 terms mixing frequent and rare ones, as questions do. */
export function syntheticQueries(count: number, vocabulary: number): string[] {
  let seed = 17
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    return seed / 2 ** 31
  }
  return Array.from({ length: count }, () =>
    Array.from({ length: 2 + Math.floor(next() * 4) }, () => `t${Math.floor(vocabulary ** next())}`).join(
      ' ',
    ),
  )
}
