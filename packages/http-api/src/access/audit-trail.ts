import { recordAudit } from '@rag/access'
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
    // The action is the route's own (defineRoute's `audit`), set when the route was reached.
    const action = c.get('auditAction')
    const principal = c.get('principal')
    if (!action || !principal) return
    const target =
      c.req.path.match(/^\/(?:documents|keys|sources)\/([^/]+)/)?.[1] ??
      c.res.headers.get('location')?.split('/').pop() ??
      null
    await recordAudit(pool, principal, {
      action,
      target: target === 'url' ? null : target,
      collection: c.get('auditCollection') ?? null,
      address: addressOf(c),
      detail: {
        path: c.req.path,
        status: c.res.status,
        ...(refused ? { refused: true } : {}),
        ...c.get('auditDetail'),
      },
    }).catch((error: unknown) => logger.warn({ err: error, action }, 'audit log write failed'))
  }
}
