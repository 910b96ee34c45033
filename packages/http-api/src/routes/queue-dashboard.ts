import { createBullBoard } from '@bull-board/api'
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter'
import { HonoAdapter } from '@bull-board/hono'
import { serveStatic } from '@hono/node-server/serve-static'
import type { OpenAPIHono } from '@hono/zod-openapi'
import type { Producer } from '@rag/queue'

export const DASHBOARD_PATH = '/admin/queues'

/**
 * bull-board over every queue of the platform (ingestion and questions), with retry and clean
 * of failed jobs; behind the API key like every path but /healthz.
 */
export function mountQueueDashboard(app: OpenAPIHono, producer: Producer): void {
  const serverAdapter = new HonoAdapter(serveStatic)
  serverAdapter.setBasePath(DASHBOARD_PATH)
  createBullBoard({
    queues: [...producer.queues.values()].map((queue) => new BullMQAdapter(queue)),
    serverAdapter,
  })
  app.route(DASHBOARD_PATH, serverAdapter.registerPlugin())
}
