import type { Pool } from '@rag/db'
import type { Logger } from '@rag/log'

/** Past this many chunks the embedded database is markedly slower than native Postgres (docs/benchmarks.md). */
export const EMBEDDED_CHUNK_ADVICE = 100_000

/**
 * At start on the embedded database: when the corpus has grown past what it serves well, say so
 * once, with the way out. Reads the chunk count the keyword statistics keep (no table scan).
 */
export async function adviseOnEmbeddedSize(pool: Pool, logger: Logger): Promise<number> {
  const { rows } = await pool.query<{ chunks: string }>(
    'SELECT coalesce(sum(chunks), 0)::text AS chunks FROM corpus_stats',
  )
  const chunks = Number(rows[0]?.chunks ?? 0)
  if (chunks > EMBEDDED_CHUNK_ADVICE)
    logger.warn(
      { chunks, advisedBelow: EMBEDDED_CHUNK_ADVICE },
      `the embedded database holds ${chunks} chunks; past ${EMBEDDED_CHUNK_ADVICE} searches and ingestion are markedly slower than on native Postgres: set DATABASE_URL to a Postgres with pgvector (README: "Three ways to run")`,
    )
  return chunks
}
