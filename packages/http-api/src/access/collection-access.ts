import { z } from '@hono/zod-openapi'
import { canSee } from '@rag/access'
import type { Context } from 'hono'
import { HttpError } from '../http-error.ts'
import { principalOf } from './api-key.ts'
import { auditCollection } from './audit-trail.ts'

/** The `{name}` of a /collections/{name}/… route. */
export const collectionParams = z.object({
  name: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'name', in: 'path' }, example: 'hr' }),
})

/**
 * The collection a /collections/{name}/… request names, when the caller may see it (else 404, as
 * for a document of a collection it was not given), told to the audit entry.
 */
export function grantedCollection(c: Context, name: string): string {
  if (!canSee(principalOf(c), name)) throw new HttpError(404, `no collection ${JSON.stringify(name)}`)
  auditCollection(c, name)
  return name
}
