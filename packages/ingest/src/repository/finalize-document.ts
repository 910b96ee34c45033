import { isDocumentFinished } from '@rag/api-contract/enums'
import { type Pool, type PoolClient, withTransaction } from '@rag/db'
import type { DocumentVersion } from './document-version.ts'

/**
 * When every part of a document version is stored: swap it in (older versions' sections and chunks
 * go), mark the document ready and drop its work-in-progress rows. Otherwise update its progress.
 * The row lock makes concurrent callers (the parser finishing, the last store) agree on one winner.
 */
export async function finalizeDocument(
  pool: Pool,
  { documentId, contentHash }: DocumentVersion,
): Promise<boolean> {
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<{ status: string; partsTotal: number | null; contentHash: string }>(
      'SELECT status, parts_total AS "partsTotal", content_hash AS "contentHash" FROM documents WHERE id = $1 FOR UPDATE',
      [documentId],
    )
    const document = rows[0]
    if (!document || document.contentHash !== contentHash || isDocumentFinished(document.status)) return false
    const { rows: counts } = await client.query<{ stored: number }>(
      `SELECT count(*)::int AS stored FROM ingest_parts
        WHERE document_id = $1 AND content_hash = $2 AND stage = 'stored'`,
      [documentId, contentHash],
    )
    const stored = counts[0]?.stored ?? 0
    if (document.partsTotal === null || stored < document.partsTotal) {
      const total = document.partsTotal ?? stored + 1
      await client.query('UPDATE documents SET progress = $2 WHERE id = $1', [
        documentId,
        Math.min(0.99, stored / total),
      ])
      return false
    }
    const unread = await unreadScan(client, { documentId, contentHash })
    if (unread) {
      await client.query(
        `UPDATE documents SET status = 'failed', error = $2, updated_at = now() WHERE id = $1`,
        [documentId, unread],
      )
      await client.query('DELETE FROM ingest_parts WHERE document_id = $1', [documentId])
      return false
    }
    await client.query('DELETE FROM missing_pages WHERE document_id = $1 AND content_hash <> $2', [
      documentId,
      contentHash,
    ])
    await client.query('DELETE FROM ocr_readings WHERE document_id = $1 AND content_hash <> $2', [
      documentId,
      contentHash,
    ])
    await client.query('DELETE FROM sections WHERE document_id = $1 AND content_hash <> $2', [
      documentId,
      contentHash,
    ])
    await client.query(
      `UPDATE documents SET status = 'ready', progress = 1, error = NULL, active_hash = $2, updated_at = now(),
         chunk_count = (SELECT count(*) FROM chunks WHERE document_id = $1 AND content_hash = $2)
       WHERE id = $1`,
      [documentId, contentHash],
    )
    await client.query('DELETE FROM ingest_parts WHERE document_id = $1', [documentId])
    return true
  })
}

/**
 * Why a version whose text was all to come from OCR ends with none (every page unreadable, or
 * blank), or null when it has text: such a document fails, as a PDF without any text does.
 */
async function unreadScan(client: PoolClient, { documentId, contentHash }: DocumentVersion) {
  const { rows } = await client.query<{ chunks: number; scanned: number; missing: string | null }>(
    `SELECT (SELECT count(*)::int FROM chunks WHERE document_id = $1 AND content_hash = $2) AS chunks,
            (SELECT count(*)::int FROM ingest_parts WHERE document_id = $1 AND content_hash = $2
               AND ocr_page IS NOT NULL) AS scanned,
            (SELECT string_agg('page ' || page || ': ' || reason, '; ' ORDER BY page)
               FROM (SELECT page, reason FROM missing_pages WHERE document_id = $1 AND content_hash = $2
                      ORDER BY page LIMIT 3) m) AS missing`,
    [documentId, contentHash],
  )
  const row = rows[0]
  if (!row || row.chunks > 0 || row.scanned === 0) return null
  return row.missing
    ? `ocr: no page could be read (${row.missing})`
    : 'ocr: the PDF has no text: its pages hold no text layer and OCR found no text in them'
}
