import { canSee } from '@rag/access'
import type { Pool } from '@rag/db'
import { type DocumentRecord, getDocument } from '@rag/ingest'
import type { Context } from 'hono'
import { principalOf } from '../access/api-key.ts'
import { auditCollection } from '../access/audit-trail.ts'
import { HttpError } from '../http-error.ts'

/** A document the caller may see (its collection is theirs), else 404 as for one that does not exist. */
export async function visibleDocument(deps: { pool: Pool }, c: Context, id: string): Promise<DocumentRecord> {
  const document = await getDocument(deps.pool, id)
  if (!document || !canSee(principalOf(c), document.collection)) throw new HttpError(404, 'no such document')
  auditCollection(c, document.collection)
  return document
}
