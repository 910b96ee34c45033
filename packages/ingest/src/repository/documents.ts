import { DOCUMENT_STATUSES, type DocumentStatus, FINISHED_DOCUMENT_STATUSES } from '@rag/api-contract/enums'
import { type Pool, type PoolClient, sqlList, withTransaction } from '@rag/db'
import type { OcrPageReading, SourceType } from '@rag/parsers'
import type { DocumentVersion } from './document-version.ts'
import type { PartStage } from './parts.ts'

export { DOCUMENT_STATUSES, type DocumentStatus }

export interface DocumentRecord {
  id: string
  collection: string
  filename: string
  sourceType: SourceType
  storedPath: string
  contentHash: string
  sizeBytes: number
  tags: string[]
  status: DocumentStatus
  progress: number
  error: string | null
  chunkCount: number
  activeHash: string | null
  partsTotal: number | null
  /** A web page's address (re-indexing fetches it again); null for an uploaded file. */
  sourceUrl: string | null
  createdAt: Date
  updatedAt: Date
  /** Chunks stored for keyword search whose vectors wait for the embedding model (views only). */
  vectorsPending?: number
  /** Pages without a text layer this version has handed to OCR, and how many of them are read (views only). */
  ocrPages?: { read: number; total: number } | null
  /** Pages of this version that could not be read, and why (views only; the first 100). */
  missingPages?: { page: number; reason: string }[]
  /** How OCR read each page of this version it read (views only; the first 1,000). */
  ocrReadings?: OcrPageReading[]
}

const COLUMNS = `id, collection, filename, source_type AS "sourceType", stored_path AS "storedPath",
  content_hash AS "contentHash", size_bytes::float8 AS "sizeBytes", tags, status, progress, error,
  chunk_count AS "chunkCount", active_hash AS "activeHash", parts_total AS "partsTotal",
  source_url AS "sourceUrl", created_at AS "createdAt", updated_at AS "updatedAt"`

/** What the API shows of a document: its row and how many of its vectors are still pending. */
const VIEW_COLUMNS = `${COLUMNS}, (SELECT count(*)::int FROM chunks c
  WHERE c.document_id = documents.id AND c.embedding_status = 'pending') AS "vectorsPending",
  (SELECT CASE WHEN count(*) > 0 THEN json_build_object(
      'read', count(*) FILTER (WHERE p.stage <> 'awaiting-ocr'), 'total', count(*)) END
     FROM ingest_parts p WHERE p.document_id = documents.id AND p.content_hash = documents.content_hash
      AND p.ocr_page IS NOT NULL) AS "ocrPages",
  (SELECT coalesce(json_agg(json_build_object('page', m.page, 'reason', m.reason) ORDER BY m.page), '[]')
     FROM (SELECT page, reason FROM missing_pages WHERE document_id = documents.id
            AND content_hash = documents.content_hash ORDER BY page LIMIT 100) m) AS "missingPages",
  (SELECT coalesce(json_agg(json_build_object('page', o.page, 'confidence', round(o.confidence::numeric, 1),
      'direction', o.direction) ORDER BY o.page), '[]')
     FROM (SELECT page, confidence, direction FROM ocr_readings WHERE document_id = documents.id
            AND content_hash = documents.content_hash ORDER BY page LIMIT 1000) o) AS "ocrReadings"`

type Queryable = Pick<Pool | PoolClient, 'query'>

export async function getDocument(db: Queryable, id: string): Promise<DocumentRecord | null> {
  const { rows } = await db.query<DocumentRecord>(`SELECT ${VIEW_COLUMNS} FROM documents WHERE id = $1`, [id])
  return rows[0] ?? null
}

export async function findDocument(db: Queryable, collection: string, filename: string, lock = false) {
  const { rows } = await db.query<DocumentRecord>(
    `SELECT ${COLUMNS} FROM documents WHERE collection = $1 AND filename = $2${lock ? ' FOR UPDATE' : ''}`,
    [collection, filename],
  )
  return rows[0] ?? null
}

export async function listDocuments(
  db: Queryable,
  {
    collection,
    status,
    limit = 100,
    offset = 0,
    within = null,
  }: {
    collection?: string
    status?: DocumentStatus
    limit?: number
    offset?: number
    /** Only these collections (the caller's grants); null: all. */
    within?: string[] | null
  },
): Promise<DocumentRecord[]> {
  const { rows } = await db.query<DocumentRecord>(
    `SELECT ${VIEW_COLUMNS} FROM documents
      WHERE ($1::text IS NULL OR collection = $1) AND ($2::text IS NULL OR status = $2)
        AND ($5::text[] IS NULL OR collection = ANY($5::text[]))
      ORDER BY created_at DESC, id LIMIT $3 OFFSET $4`,
    [collection ?? null, status ?? null, limit, offset, within],
  )
  return rows
}

/** The document version a stage job is about, or null when it was deleted, replaced or failed. */
export async function currentDocument(db: Queryable, { documentId, contentHash }: DocumentVersion) {
  const document = await getDocument(db, documentId)
  if (!document || document.contentHash !== contentHash || document.status === 'failed') return null
  return document
}

/** The finished states as SQL constants. */
const FINISHED = sqlList(FINISHED_DOCUMENT_STATUSES)
/** Where a document is, in the contract's order: a status is only ever replaced by a later one. */
const STATUS_ORDER: string[] = [...DOCUMENT_STATUSES]
/** A part's stage, in order, and the document status a part at that stage waits in. */
const PART_STAGES: PartStage[] = ['awaiting-ocr', 'parsed', 'chunked', 'embedded', 'stored']
const WAITING_IN: DocumentStatus[] = ['parsing', 'chunking', 'embedding', 'storing', 'storing']

/** Moves an unfinished document forward to `status` (never back), and marks it as moving. */
export async function setStage(
  db: Queryable,
  { documentId, contentHash }: DocumentVersion,
  status: DocumentStatus,
) {
  await db.query(
    `UPDATE documents SET updated_at = now(),
        status = CASE WHEN array_position($4::text[], $3) > array_position($4::text[], status) THEN $3 ELSE status END
      WHERE id = $1 AND content_hash = $2 AND status NOT IN (${FINISHED})`,
    [documentId, contentHash, status, STATUS_ORDER],
  )
}

/**
 * The document's status derived from its parts once the parser has made them all: the stage its
 * least advanced part waits in (parts move on their own, so one part's step must not show the
 * whole document further along, or back). Never moves backwards; marks the document as moving.
 */
export async function refreshDocumentStatus(db: Queryable, { documentId, contentHash }: DocumentVersion) {
  await db.query(
    `WITH least AS (
       SELECT ($4::text[])[min(array_position($3::text[], stage))] AS status
         FROM ingest_parts WHERE document_id = $1 AND content_hash = $2)
     UPDATE documents d SET updated_at = now(),
        status = CASE WHEN d.parts_total IS NOT NULL AND least.status IS NOT NULL
                       AND array_position($5::text[], least.status) > array_position($5::text[], d.status)
                      THEN least.status ELSE d.status END
       FROM least
      WHERE d.id = $1 AND d.content_hash = $2 AND d.status NOT IN (${FINISHED})`,
    [documentId, contentHash, PART_STAGES, WAITING_IN, STATUS_ORDER],
  )
}

/**
 * After a part step moved one part on from `left`: marks the document as moving and, only when
 * that was the last part at `left` (an index probe, not a scan of the parts), moves its status to
 * where its least advanced part now waits — the same status refreshDocumentStatus derives, paid
 * for a few times per document instead of on every step of every part. The step that moves the
 * last part of a stage sees every other part's move (each is committed before its own check).
 */
export async function partMoved(
  db: Queryable,
  { documentId, contentHash }: DocumentVersion,
  left: PartStage,
) {
  await db.query(
    `UPDATE documents d SET updated_at = now(),
        status = CASE
          WHEN d.parts_total IS NULL OR EXISTS (
            SELECT 1 FROM ingest_parts WHERE document_id = $1 AND content_hash = $2 AND stage = $6) THEN d.status
          ELSE coalesce((
            SELECT CASE WHEN array_position($5::text[], ($4::text[])[min(array_position($3::text[], stage))])
                             > array_position($5::text[], d.status)
                        THEN ($4::text[])[min(array_position($3::text[], stage))] END
              FROM ingest_parts WHERE document_id = $1 AND content_hash = $2), d.status)
        END
      WHERE d.id = $1 AND d.content_hash = $2 AND d.status NOT IN (${FINISHED})`,
    [documentId, contentHash, PART_STAGES, WAITING_IN, STATUS_ORDER, left],
  )
}

/**
 * Fails a document version with its reason and removes at once what its pipeline had made of it:
 * its parts, and the sections and chunks it stored (their words leave the keyword statistics with
 * them). The version search still sees (a re-upload that failed) stays. A part being stored holds
 * the document row shared (storePart), so this waits for it and nothing is stored after it.
 */
export async function markFailed(pool: Pool, { documentId, contentHash }: DocumentVersion, reason: string) {
  await withTransaction(pool, async (client) => {
    const { rowCount } = await client.query(
      `UPDATE documents SET status = 'failed', error = $3, updated_at = now()
        WHERE id = $1 AND content_hash = $2 AND status <> 'ready'`,
      [documentId, contentHash, reason.slice(0, 2000)],
    )
    if (!rowCount) return
    await client.query(
      `DELETE FROM sections s USING documents d
        WHERE d.id = $1 AND s.document_id = $1 AND s.content_hash = $2
          AND s.content_hash IS DISTINCT FROM d.active_hash`,
      [documentId, contentHash],
    )
    await client.query('DELETE FROM ingest_parts WHERE document_id = $1 AND content_hash = $2', [
      documentId,
      contentHash,
    ])
  })
}

/** Puts a document back at the start of the pipeline (re-index); its searchable version stays until replaced. */
export async function requeueDocument(db: Queryable, documentId: string) {
  const { rows } = await db.query<{ contentHash: string }>(
    `UPDATE documents SET status = 'queued', progress = 0, error = NULL, parts_total = NULL, updated_at = now()
      WHERE id = $1 RETURNING content_hash AS "contentHash"`,
    [documentId],
  )
  await db.query('DELETE FROM ingest_parts WHERE document_id = $1', [documentId])
  return rows[0]?.contentHash ?? null
}

export interface DocumentSection {
  sourceId: string
  heading: string | null
  text: string
  /** Read by OCR from a picture of the text. */
  ocr: boolean
}

/** The document's text as indexed, page by page / row by row / section by section, in order. */
export async function documentSections(
  db: Queryable,
  id: string,
  { limit = 1_000_000, offset: given = 0, around }: { limit?: number; offset?: number; around?: string } = {},
): Promise<{ sections: DocumentSection[]; total: number; offset: number }> {
  // `around`: the page that shows a cited source with the two sections before it (its context).
  const offset =
    around === undefined
      ? given
      : Math.max(
          0,
          ((
            await db.query<{ before: number | null }>(
              `SELECT (SELECT count(*)::int FROM sections s JOIN documents d
                         ON d.id = s.document_id AND d.active_hash = s.content_hash
                        WHERE s.document_id = $1 AND s.ordinal < m.ordinal) AS before
                 FROM (SELECT min(s.ordinal) AS ordinal FROM sections s JOIN documents d
                         ON d.id = s.document_id AND d.active_hash = s.content_hash
                        WHERE s.document_id = $1 AND s.source_id = $2) m WHERE m.ordinal IS NOT NULL`,
              [id, around],
            )
          ).rows[0]?.before ?? 2) - 2,
        )
  const { rows } = await db.query<DocumentSection & { total: number }>(
    `SELECT s.source_id AS "sourceId", s.heading, s.text, s.ocr, count(*) OVER ()::int AS total FROM sections s
       JOIN documents d ON d.id = s.document_id AND d.active_hash = s.content_hash
      WHERE s.document_id = $1 ORDER BY s.ordinal LIMIT $2 OFFSET $3`,
    [id, limit, offset],
  )
  const total =
    rows[0]?.total ??
    (
      await db.query<{ total: number }>(
        `SELECT count(*)::int AS total FROM sections s JOIN documents d
           ON d.id = s.document_id AND d.active_hash = s.content_hash WHERE s.document_id = $1`,
        [id],
      )
    ).rows[0]?.total ??
    0
  return {
    sections: rows.map(({ sourceId, heading, text, ocr }) => ({ sourceId, heading, text, ocr })),
    total,
    offset,
  }
}

/** How many parts the parser made of this version: once all are stored, the document is ready. */
export async function setPartsTotal(
  db: Queryable,
  { documentId, contentHash }: DocumentVersion,
  total: number,
) {
  await db.query(
    'UPDATE documents SET parts_total = $3, updated_at = now() WHERE id = $1 AND content_hash = $2',
    [documentId, contentHash, total],
  )
}

/** What an upload stores of a file: the version the pipeline will work on. */
export interface DocumentContent {
  contentHash: string
  storedPath: string
  sizeBytes: number
  sourceType: SourceType
  tags: string[]
  sourceUrl?: string
}

export async function insertDocument(
  db: Queryable,
  document: DocumentContent & { id: string; collection: string; filename: string },
) {
  await db.query(
    `INSERT INTO documents (id, collection, filename, source_type, stored_path, content_hash, size_bytes, tags, source_url)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      document.id,
      document.collection,
      document.filename,
      document.sourceType,
      document.storedPath,
      document.contentHash,
      document.sizeBytes,
      document.tags,
      document.sourceUrl ?? null,
    ],
  )
}

/** A document's new name (a web page's, once named as people read its address): its next parse cites it so. */
export async function renameDocument(db: Queryable, id: string, filename: string) {
  await db.query('UPDATE documents SET filename = $2, updated_at = now() WHERE id = $1', [id, filename])
}

/** New content for an existing document: back to the start of the pipeline, earlier work-in-progress dropped. */
export async function replaceDocumentContent(db: Queryable, id: string, content: DocumentContent) {
  await db.query(
    `UPDATE documents SET content_hash = $2, stored_path = $3, size_bytes = $4, tags = $5, source_type = $6,
       status = 'queued', progress = 0, error = NULL, parts_total = NULL, updated_at = now() WHERE id = $1`,
    [id, content.contentHash, content.storedPath, content.sizeBytes, content.tags, content.sourceType],
  )
  await db.query('DELETE FROM ingest_parts WHERE document_id = $1', [id])
}
