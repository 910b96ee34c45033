import { canSee } from '@rag/access'
import type { Asker } from '@rag/questions'
import type { Context } from 'hono'
import { keyOwner, principalOf } from './api-key.ts'
import { auditCollection } from './audit-trail.ts'

/**
 * Who asks a question, as askQuestion takes it: whose it is and the collections they may read
 * (retrieval limits the search to them in SQL). The collection asked for is audited.
 */
export function askerOf(c: Context, collection?: string): Asker {
  if (collection) auditCollection(c, collection)
  return { owner: keyOwner(c), collections: principalOf(c).collections }
}

/** Of these collections, those the caller may see. */
export function visibleCollections(c: Context, names: string[]): string[] {
  const principal = principalOf(c)
  return names.filter((name) => canSee(principal, name))
}
