import type { Pool } from '@rag/db'
import type { Logger } from '@rag/log'
import type { Producer } from '@rag/queue'
import { Hono } from 'hono'
import { cors } from 'hono/cors'
import { errorHandler } from './error-handler.ts'
import { HttpError } from './http-error.ts'
import { requireApiKey } from './middleware/api-key.ts'
import { rateLimit } from './middleware/rate-limit.ts'
import { requestContext } from './middleware/request-context.ts'
import { type AskRouteDeps, askRoutes } from './routes/ask.ts'
import { type DocumentRoutesOptions, documentRoutes } from './routes/documents.ts'
import { healthRoutes } from './routes/health.ts'
import { mountQueueDashboard } from './routes/queue-dashboard.ts'
import { type SearchRouteDeps, searchRoutes } from './routes/search.ts'

export interface GatewayDeps extends SearchRouteDeps, AskRouteDeps {
  pool: Pool
  producer: Producer
  logger: Logger
  uploads: DocumentRoutesOptions
  queuePrefix: string
  /** Who may call: API keys (none = everyone, loopback only), browser origins, rate limits. */
  access?: AccessOptions
}

export interface AccessOptions {
  apiKeys: string[]
  corsOrigins: string[]
  askPerMinute: number
  uploadsPerMinute: number
}

const OPEN_ACCESS: AccessOptions = { apiKeys: [], corsOrigins: [], askPerMinute: 0, uploadsPerMinute: 0 }

/** Paths anyone may read even when API keys are set. */
const isOpenPath = (path: string) => path === '/healthz'

export function createApp(deps: GatewayDeps) {
  const app = new Hono()
  const access = deps.access ?? OPEN_ACCESS
  app.use(requestContext({ logger: deps.logger }))
  if (access.corsOrigins.length > 0) {
    // Before the key check: a browser's preflight carries no key.
    app.use(
      cors({
        origin: access.corsOrigins,
        allowHeaders: ['authorization', 'x-api-key', 'content-type'],
        exposeHeaders: ['x-request-id', 'location', 'retry-after'],
      }),
    )
  }
  app.use(requireApiKey({ keys: access.apiKeys, open: isOpenPath }))
  app.post('/ask', rateLimit({ perMinute: access.askPerMinute, what: 'questions' }))
  app.post('/documents', rateLimit({ perMinute: access.uploadsPerMinute, what: 'uploads' }))
  app.route('/', healthRoutes(deps))
  app.route('/', documentRoutes(deps, deps.uploads))
  app.route('/', searchRoutes(deps))
  app.route('/', askRoutes(deps))
  mountQueueDashboard(app, deps.producer)
  app.notFound((c) => {
    throw new HttpError(404, `no route for ${c.req.method} ${c.req.path}`)
  })
  app.onError(errorHandler({ logger: deps.logger }))
  return app
}
