import { z } from '@hono/zod-openapi'
import { canSee, collectionExists } from '@rag/access'
import type { Pool } from '@rag/db'
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
 * The collection a request names, when it exists and the caller may see it — else 404, the same
 * answer for a misspelt name as for another team's collection, so a reader learns nothing of which
 * exist — told to the audit entry.
 */
export async function grantedCollection(c: Context, pool: Pool, name: string): Promise<string> {
  if (!canSee(principalOf(c), name) || !(await collectionExists(pool, name)))
    throw new HttpError(404, `no collection ${JSON.stringify(name)}`)
  auditCollection(c, name)
  return name
}

/** grantedCollection for a collection a request may leave out (then: every collection it may see). */
export async function grantedCollectionIfNamed(
  c: Context,
  pool: Pool,
  name: string | undefined,
): Promise<string | undefined> {
  return name === undefined ? undefined : grantedCollection(c, pool, name)
}

/** What a request that would make something for a collection no one has begun is told. */
export const unknownCollectionMessage = (name: string) =>
  `no collection ${JSON.stringify(name)}: a collection begins with its first document, or an admin creates it (POST /collections, rag collections create)`
