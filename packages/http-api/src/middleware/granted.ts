import { canSee } from '@rag/access'
import type { QuestionOptions } from '@rag/questions'
import type { Context } from 'hono'
import { principalOf } from './api-key.ts'
import { auditCollection } from './audit-trail.ts'

/** A question's options limited to what its asker may read (retrieval applies it in SQL). */
export function grantedOptions(c: Context, options: QuestionOptions): QuestionOptions {
  const { collections } = principalOf(c)
  if (options.collection) auditCollection(c, options.collection)
  return collections === null ? options : { ...options, within: collections }
}

/** Of these collections, those the caller may see. */
export function visibleCollections(c: Context, names: string[]): string[] {
  const principal = principalOf(c)
  return names.filter((name) => canSee(principal, name))
}
