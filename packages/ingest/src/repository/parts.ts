import type { Chunk, ParentSection } from '@rag/chunking'
import type { Pool, PoolClient } from '@rag/db'
import type { ParsedSection } from '@rag/parsers'
import type { DocumentVersion, PartRef } from './document-version.ts'
import { readingsOf, recordOcrReadings } from './ocr-readings.ts'

/** Where a part is; 'awaiting-ocr': a PDF page without a text layer, waiting for its OCR job. */
export type PartStage = 'awaiting-ocr' | 'parsed' | 'chunked' | 'embedded' | 'stored'

export interface ChunkedPart {
  parents: ParentSection[]
  chunks: Chunk[]
}

export interface PartRecord {
  part: number
  stage: PartStage
  sections: ParsedSection[] | null
  chunked: ChunkedPart | null
  /** The PDF page an OCR part is (null: a part of the parse's own sections). */
  ocrPage: number | null
}

/** Parents of part N are numbered from N × PART_ORDINAL_SPAN, so parts never collide. */
export const PART_ORDINAL_SPAN = 100_000

type Queryable = Pick<Pool | PoolClient, 'query'>

/** The document version ($1, $2) exists and has not failed. */
const UNFAILED_VERSION = `SELECT 1 FROM documents WHERE id = $1 AND content_hash = $2 AND status <> 'failed'`

export async function getPart(db: Queryable, { documentId, contentHash, part }: PartRef) {
  const { rows } = await db.query<PartRecord>(
    'SELECT part, stage, sections, chunked, ocr_page AS "ocrPage" FROM ingest_parts WHERE document_id = $1 AND content_hash = $2 AND part = $3',
    [documentId, contentHash, part],
  )
  return rows[0] ?? null
}

export async function listParts(db: Queryable, { documentId, contentHash }: DocumentVersion) {
  const { rows } = await db.query<{ part: number; stage: PartStage }>(
    'SELECT part, stage FROM ingest_parts WHERE document_id = $1 AND content_hash = $2 ORDER BY part',
    [documentId, contentHash],
  )
  return rows
}

/** Saves parsed sections; a part already further along (a retried parse) is left as it is. */
export async function saveParsedPart(
  db: Queryable,
  { documentId, contentHash, part }: PartRef,
  sections: ParsedSection[],
) {
  // Not for a version that failed meanwhile (its parts are gone: see markFailed).
  await db.query(
    `INSERT INTO ingest_parts (document_id, content_hash, part, stage, sections)
     SELECT $1, $2, $3, 'parsed', $4 WHERE EXISTS (${UNFAILED_VERSION})
     ON CONFLICT (document_id, content_hash, part) DO UPDATE SET sections = excluded.sections, updated_at = now()
       WHERE ingest_parts.stage = 'parsed'`,
    [documentId, contentHash, part, JSON.stringify(sections)],
  )
  await recordOcrReadings(db, { documentId, contentHash }, readingsOf(sections))
}

/** Records a page OCR is to read as a part of its own; a retried parse leaves one already there alone. */
export async function saveOcrPart(db: Queryable, { documentId, contentHash, part }: PartRef, page: number) {
  await db.query(
    `INSERT INTO ingest_parts (document_id, content_hash, part, stage, ocr_page)
     SELECT $1, $2, $3, 'awaiting-ocr', $4 WHERE EXISTS (${UNFAILED_VERSION}) ON CONFLICT (document_id, content_hash, part) DO NOTHING`,
    [documentId, contentHash, part, page],
  )
}

/** An OCR part's text is read: it becomes a parsed part like any other (once: a retry finds it parsed). */
export async function saveOcrText(
  db: Queryable,
  { documentId, contentHash, part }: PartRef,
  sections: ParsedSection[],
) {
  await db.query(
    `UPDATE ingest_parts SET stage = 'parsed', sections = $4, updated_at = now()
      WHERE document_id = $1 AND content_hash = $2 AND part = $3 AND stage = 'awaiting-ocr'`,
    [documentId, contentHash, part, JSON.stringify(sections)],
  )
  await recordOcrReadings(db, { documentId, contentHash }, readingsOf(sections))
}

export async function advancePart(
  db: Queryable,
  { documentId, contentHash, part }: PartRef,
  stage: PartStage,
  changes: { sections?: null; chunked?: ChunkedPart | null } = {},
) {
  const sets = ['stage = $4', 'updated_at = now()']
  const values: unknown[] = [documentId, contentHash, part, stage]
  if ('sections' in changes) sets.push('sections = NULL')
  if ('chunked' in changes) {
    values.push(changes.chunked === null ? null : JSON.stringify(changes.chunked))
    sets.push(`chunked = $${values.length}`)
  }
  await db.query(
    `UPDATE ingest_parts SET ${sets.join(', ')} WHERE document_id = $1 AND content_hash = $2 AND part = $3`,
    values,
  )
}
