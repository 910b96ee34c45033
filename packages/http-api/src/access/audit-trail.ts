import { type AuditAction, recordAudit } from '@rag/access'
import type { Pool } from '@rag/db'
import type { Logger } from '@rag/log'
import type { Context, MiddlewareHandler } from 'hono'

declare module 'hono' {
  interface ContextVariableMap {
    /** What a route adds to its audit entry (e.g. the session a sign-in replaced). */
    auditDetail: Record<string, unknown>
    /** The collection the request acted on (an upload's, a document's), when a route knows it. */
    auditCollection: string
  }
}

/** Refusals of an audited action recorded too: who tried what they may not do, or too often. */
const REFUSED = new Set([403, 404, 429])

/** Tells the audit entry of this request which collection it acted on. */
export const auditCollection = (c: Context, collection: string) => c.set('auditCollection', collection)

/** The requests the audit log records, by what succeeded (2xx): one place, for every door. */
const AUDITED: { method: string; pattern: RegExp; action: AuditAction }[] = [
  { method: 'POST', pattern: /^\/documents(\/url)?$/, action: 'upload' },
  { method: 'DELETE', pattern: /^\/documents\/[^/]+$/, action: 'delete' },
  { method: 'POST', pattern: /^\/documents\/[^/]+\/reindex$|^\/reindex$/, action: 'reindex' },
  {
    method: 'POST',
    pattern: /^\/ask$|^\/conversations\/[^/]+\/messages$|^\/v1\/chat\/completions$/,
    action: 'ask',
  },
  { method: 'POST', pattern: /^\/session$/, action: 'sign-in' },
  { method: 'POST', pattern: /^\/keys$/, action: 'key.create' },
  { method: 'DELETE', pattern: /^\/keys\/[^/]+$/, action: 'key.revoke' },
  { method: 'PUT', pattern: /^\/collections\/[^/]+\/synonyms$/, action: 'synonyms.change' },
  { method: 'DELETE', pattern: /^\/collections\/[^/]+\/synonyms$/, action: 'synonyms.change' },
  { method: 'POST', pattern: /^\/collections\/[^/]+\/calibration$/, action: 'calibration.change' },
  { method: 'DELETE', pattern: /^\/collections\/[^/]+\/calibration$/, action: 'calibration.change' },
]

/**
 * Records who did what once it succeeded — and who was refused it (403, 404, 429: `refused` in
 * its detail) —: the principal (never its key), the address, the collection (when the route
 * knows it), the document, question or key it named (the path's id, else the Location of what it
 * made). A failure to record is logged, not the request's failure.
 */
export function auditTrail({
  pool,
  logger,
  addressOf,
}: {
  pool: Pool
  logger: Logger
  addressOf: (c: Context) => string
}): MiddlewareHandler {
  return async function auditMiddleware(c, next) {
    await next()
    const refused = REFUSED.has(c.res.status)
    if (c.res.status >= 300 && !refused) return
    const rule = AUDITED.find((entry) => entry.method === c.req.method && entry.pattern.test(c.req.path))
    const principal = c.get('principal')
    if (!rule || !principal) return
    const target =
      c.req.path.match(/^\/(?:documents|keys)\/([^/]+)/)?.[1] ??
      c.res.headers.get('location')?.split('/').pop() ??
      null
    await recordAudit(pool, principal, {
      action: rule.action,
      target: target === 'url' ? null : target,
      collection: c.get('auditCollection') ?? null,
      address: addressOf(c),
      detail: {
        path: c.req.path,
        status: c.res.status,
        ...(refused ? { refused: true } : {}),
        ...c.get('auditDetail'),
      },
    }).catch((error: unknown) => logger.warn({ err: error, action: rule.action }, 'audit log write failed'))
  }
}
