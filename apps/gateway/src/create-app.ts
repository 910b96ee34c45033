import type { Pool } from '@rag/db'
import type { Logger } from '@rag/log'
import type { Producer } from '@rag/queue'
import { Hono } from 'hono'
import { errorHandler } from './error-handler.ts'
import { HttpError } from './http-error.ts'
import { requestContext } from './middleware/request-context.ts'
import { type AskRouteDeps, askRoutes } from './routes/ask.ts'
import { type DocumentRoutesOptions, documentRoutes } from './routes/documents.ts'
import { healthRoutes } from './routes/health.ts'
import { type SearchRouteDeps, searchRoutes } from './routes/search.ts'

export interface GatewayDeps extends SearchRouteDeps, AskRouteDeps {
  pool: Pool
  producer: Producer
  logger: Logger
  uploads: DocumentRoutesOptions
  queuePrefix: string
}

export function createApp(deps: GatewayDeps) {
  const app = new Hono()
  app.use(requestContext({ logger: deps.logger }))
  app.route('/', healthRoutes(deps))
  app.route('/', documentRoutes(deps, deps.uploads))
  app.route('/', searchRoutes(deps))
  app.route('/', askRoutes(deps))
  app.notFound((c) => {
    throw new HttpError(404, `no route for ${c.req.method} ${c.req.path}`)
  })
  app.onError(errorHandler({ logger: deps.logger }))
  return app
}
