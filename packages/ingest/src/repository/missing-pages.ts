import type { Pool, PoolClient } from '@rag/db'
import type { DocumentVersion } from './document-version.ts'

type Queryable = Pick<Pool | PoolClient, 'query'>

export interface MissingPage {
  page: number
  reason: string
}

/** A page of this version that could not be read, and why (the document completes without it). */
export async function recordMissingPage(
  db: Queryable,
  { documentId, contentHash }: DocumentVersion,
  { page, reason }: MissingPage,
) {
  await db.query(
    `INSERT INTO missing_pages (document_id, content_hash, page, reason) VALUES ($1, $2, $3, $4)
     ON CONFLICT (document_id, content_hash, page) DO UPDATE SET reason = excluded.reason`,
    [documentId, contentHash, page, reason.slice(0, 1000)],
  )
}

/** A page read after all (a re-index, a retry that worked) is no longer missing. */
export async function clearMissingPage(
  db: Queryable,
  { documentId, contentHash }: DocumentVersion,
  page: number,
) {
  await db.query('DELETE FROM missing_pages WHERE document_id = $1 AND content_hash = $2 AND page = $3', [
    documentId,
    contentHash,
    page,
  ])
}
