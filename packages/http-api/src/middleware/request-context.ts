import { randomUUID } from 'node:crypto'
import { type Logger, withLogContext } from '@rag/log'
import type { MiddlewareHandler } from 'hono'

/** Health polls (a 503 there is an answer, not a fault) and static files: at debug, or they would be most of the log. */
const isRoutine = (path: string, status: number) =>
  path === '/healthz' ||
  (status < 400 &&
    (path.startsWith('/assets/') || path.startsWith('/docs/assets/') || path === '/favicon.svg'))

/** A request that takes this long is logged at info (the answer to "why was it slow?"). */
const SLOW_REQUEST_MS = 2000

/**
 * Gives each request an id (or keeps the caller's X-Request-Id), logs it once (at debug, or info
 * when it failed or was slow), and stamps its log lines.
 */
export function requestContext({ logger }: { logger: Logger }): MiddlewareHandler {
  return async function requestContextMiddleware(c, next) {
    const incoming = c.req.header('x-request-id')
    const reqId = incoming && /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID()
    c.header('x-request-id', reqId)
    const started = performance.now()
    await withLogContext({ reqId }, async () => {
      await next()
      const ms = Math.round(performance.now() - started)
      const { status } = c.res
      // Every request at debug (LOG_LEVEL=debug shows them all); at info only what someone would
      // look for: a refused or failed request, or a slow one.
      const level = isRoutine(c.req.path, status)
        ? 'debug'
        : status >= 500
          ? 'error'
          : status >= 400 || ms >= SLOW_REQUEST_MS
            ? 'info'
            : 'debug'
      logger[level](
        { method: c.req.method, path: c.req.path, status, ms },
        status < 400 && ms >= SLOW_REQUEST_MS ? 'slow request' : 'request',
      )
    })
  }
}
