import type { Logger } from '@rag/log'
import type { ErrorHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { unavailableDependency } from './dependency-unavailable.ts'
import { HttpError } from './http-error.ts'

/** How long a client is asked to wait before sending a request again while a service is away. */
const RETRY_AFTER_SECONDS = 5

export function errorHandler({ logger }: { logger: Logger }): ErrorHandler {
  return function handleError(error, c) {
    // A request refused with its body (maybe) unread: the rest of the body is still on the
    // connection, which then cannot carry another request, so say so (a client reusing it would fail).
    if (
      c.req.header('content-length') !== '0' &&
      (c.req.header('content-length') || c.req.header('transfer-encoding'))
    )
      c.header('Connection', 'close')
    if (error instanceof HttpError) {
      return c.json({ error: { message: error.message, ...error.details } }, error.status)
    }
    if (error instanceof HTTPException) {
      // Hono's validators throw this for a body that does not parse.
      const message = /malformed json/i.test(error.message)
        ? 'the body is not valid JSON'
        : error.message || 'request rejected'
      return c.json({ error: { message } }, error.status)
    }
    const away = unavailableDependency(error)
    if (away) {
      // Not a fault: the same request succeeds once the service is back (clients retry on this).
      logger.warn({ err: error }, `${away} is unavailable: answered 503`)
      c.header('Retry-After', String(RETRY_AFTER_SECONDS))
      return c.json(
        {
          error: {
            message: `${away} is unavailable right now; the request was not completed: send it again in a moment`,
          },
        },
        503,
      )
    }
    logger.error({ err: error }, 'unhandled error')
    return c.json({ error: { message: 'internal error' } }, 500)
  }
}
