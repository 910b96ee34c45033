import { createBullBoard } from '@bull-board/api'
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter'
import { HonoAdapter } from '@bull-board/hono'
import { serveStatic } from '@hono/node-server/serve-static'
import type { OpenAPIHono } from '@hono/zod-openapi'
import type { Producer } from '@rag/queue'
import type { MiddlewareHandler } from 'hono'

export const DASHBOARD_PATH = '/admin/queues'

/** A stylesheet link to another site (bull-board's Google Fonts). */
const OUTSIDE_STYLESHEET = /<link[^>]+href="https?:\/\/[^"]*"[^>]*rel="stylesheet"[^>]*>/g
const DASHBOARD_POLICY =
  "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; frame-ancestors 'self'"

/**
 * bull-board over every queue of the platform (ingestion and questions), with retry and clean
 * of failed jobs; behind the API key like every path but /healthz.
 */
export function mountQueueDashboard(app: OpenAPIHono, producer: Producer): void {
  // Offline first: bull-board's page loads its fonts from Google, so offline it waits on the
  // network. The link is taken out (its own fallback fonts apply), and the page may load nothing
  // from anywhere but this gateway.
  const offline: MiddlewareHandler = async (c, next) => {
    await next()
    if (!c.res.headers.get('content-type')?.startsWith('text/html')) return
    const page = (await c.res.text()).replace(OUTSIDE_STYLESHEET, '')
    const headers = new Headers(c.res.headers)
    headers.delete('content-length')
    headers.set('Content-Security-Policy', DASHBOARD_POLICY)
    c.res = new Response(page, { status: c.res.status, headers })
  }
  app.use(DASHBOARD_PATH, offline)
  app.use(`${DASHBOARD_PATH}/*`, offline)
  const serverAdapter = new HonoAdapter(serveStatic)
  serverAdapter.setBasePath(DASHBOARD_PATH)
  createBullBoard({
    queues: [...producer.queues.values()].map((queue) => new BullMQAdapter(queue)),
    serverAdapter,
  })
  app.route(DASHBOARD_PATH, serverAdapter.registerPlugin())
}
