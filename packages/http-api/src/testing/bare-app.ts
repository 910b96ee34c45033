import { createLogger } from '@rag/log'
import { Hono, type MiddlewareHandler } from 'hono'
import { errorHandler } from '../error-handler.ts'

/**
 * A bare Hono app for a middleware's own test (as hono tests its middleware): the middleware in
 * front of a route that answers 200 `ok`, and the gateway's error handler, nothing else.
 */
export function bareApp(...middleware: MiddlewareHandler[]) {
  const app = new Hono()
  for (const handler of middleware) app.use(handler)
  app.all('*', (c) => c.text('ok'))
  app.onError(errorHandler({ logger: createLogger({ name: 'test', level: 'silent' }) }))
  return app
}
