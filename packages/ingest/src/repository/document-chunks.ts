import type { TextRegion } from '@rag/chunking'
import type { Pool, PoolClient } from '@rag/db'

type Queryable = Pick<Pool | PoolClient, 'query'>

/** A chunk as the document inspector shows it: how the document was cut, and where each piece stands. */
export interface DocumentChunk {
  /** Internal: what answers' sources name, to find the questions that cited it. */
  chunkId: string
  sourceId: string
  /** Its heading path (第3章 › 3.1), as indexed with it. */
  heading: string | null
  text: string
  /** Boxes on its pages (PDFs and scans; empty for other formats). */
  regions: TextRegion[]
  /** Read by OCR from a picture of the text. */
  ocr: boolean
  /** The source id of the section it belongs to (what generation reads around it). */
  section: string
}

export interface ChunkFilter {
  limit: number
  offset: number
  /** Only chunks whose text or heading holds this (case-insensitive). */
  query?: string
  /** Only chunks with a region on this 1-based page. */
  page?: number
}

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/**
 * A page of the active version's chunks, in reading order, optionally those holding some words or
 * standing on one page; with how many match in all (the inspector pages through them).
 */
export async function documentChunks(
  db: Queryable,
  id: string,
  { limit, offset, query, page }: ChunkFilter,
): Promise<{ chunks: DocumentChunk[]; total: number }> {
  const { rows } = await db.query<DocumentChunk & { total: number }>(
    `SELECT ch.id::text AS "chunkId", ch.source_id AS "sourceId", ch.context AS heading, ch.text,
            coalesce(ch.regions, '[]'::jsonb) AS regions, s.ocr, s.source_id AS section,
            count(*) OVER ()::int AS total
       FROM chunks ch
       JOIN documents d ON d.id = ch.document_id AND d.active_hash = ch.content_hash
       JOIN sections s ON s.id = ch.section_id
      WHERE ch.document_id = $1
        AND ($4::text IS NULL OR ch.text ILIKE $4 OR coalesce(ch.context, '') ILIKE $4)
        AND ($5::int IS NULL OR ch.regions @> jsonb_build_array(jsonb_build_object('page', $5::int)))
      ORDER BY s.ordinal, ch.chunk_index
      LIMIT $2 OFFSET $3`,
    [id, limit, offset, query ? likePattern(query.normalize('NFKC')) : null, page ?? null],
  )
  // Past the last match the window count is gone: count again (a page beyond the end is empty).
  const total =
    rows[0]?.total ??
    (offset === 0
      ? 0
      : ((
          await db.query<{ total: number }>(
            `SELECT count(*)::int AS total FROM chunks ch
               JOIN documents d ON d.id = ch.document_id AND d.active_hash = ch.content_hash
              WHERE ch.document_id = $1
                AND ($2::text IS NULL OR ch.text ILIKE $2 OR coalesce(ch.context, '') ILIKE $2)
                AND ($3::int IS NULL OR ch.regions @> jsonb_build_array(jsonb_build_object('page', $3::int)))`,
            [id, query ? likePattern(query.normalize('NFKC')) : null, page ?? null],
          )
        ).rows[0]?.total ?? 0))
  return {
    chunks: rows.map(({ total: _total, ...chunk }: DocumentChunk & { total: number }) => chunk),
    total,
  }
}
