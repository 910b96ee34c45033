import { randomUUID } from 'node:crypto'
import { type Logger, withLogContext } from '@rag/log'
import type { MiddlewareHandler } from 'hono'

/** Health polls (a 503 there is an answer, not a fault) and static files: at debug, or they would be most of the log. */
const isRoutine = (path: string, status: number) =>
  path === '/healthz' ||
  (status < 400 &&
    (path.startsWith('/assets/') || path.startsWith('/docs/assets/') || path === '/favicon.svg'))

/** Gives each request an id (or keeps the caller's X-Request-Id), logs it once, and stamps its log lines. */
export function requestContext({ logger }: { logger: Logger }): MiddlewareHandler {
  return async function requestContextMiddleware(c, next) {
    const incoming = c.req.header('x-request-id')
    const reqId = incoming && /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID()
    c.header('x-request-id', reqId)
    const started = performance.now()
    await withLogContext({ reqId }, async () => {
      await next()
      const level = isRoutine(c.req.path, c.res.status) ? 'debug' : c.res.status >= 500 ? 'error' : 'info'
      logger[level](
        {
          method: c.req.method,
          path: c.req.path,
          status: c.res.status,
          ms: Math.round(performance.now() - started),
        },
        'request',
      )
    })
  }
}
