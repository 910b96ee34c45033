import type { OpenAPIHono } from '@hono/zod-openapi'
import type { PlatformMetrics } from '@rag/metrics'
import { checkQueueHealth, type Producer, readComponentStatuses } from '@rag/queue'
import type { MiddlewareHandler } from 'hono'
import { MODEL_COMPONENTS } from './health.ts'

/** HTTP latency by declared route (`/ask/{id}` as the API reference writes it, not every id), method and status. */
export function httpMetrics(metrics: PlatformMetrics): MiddlewareHandler {
  return async function httpMetricsMiddleware(c, next) {
    const end = metrics.httpDuration.startTimer()
    try {
      await next()
    } finally {
      // An unmatched path is one label, not one per path a scanner tries.
      const route =
        c.req.routePath && c.req.routePath !== '/*' ? c.req.routePath.replace(/:(\w+)/g, '{$1}') : 'unmatched'
      end({ method: c.req.method, route, status: String(c.res.status) })
    }
  }
}

/**
 * GET /metrics (Prometheus text format), behind the API key like every data path: the gateway's
 * own metrics, and at each scrape the queues (jobs per state, workers, oldest waiting job's age)
 * and the model states the workers last reported.
 */
export function mountMetrics(
  app: OpenAPIHono,
  metrics: PlatformMetrics,
  { producer, queuePrefix }: { producer: Producer; queuePrefix: string },
) {
  metrics.gauge('queueJobs', async (gauge) => {
    gauge.reset()
    for (const [name, queue] of producer.queues) {
      const health = await checkQueueHealth(queue)
      for (const state of ['waiting', 'active', 'delayed', 'failed'] as const)
        gauge.set({ queue: name, state }, health[state])
    }
  })
  metrics.gauge('queueWorkers', async (gauge) => {
    gauge.reset()
    for (const [name, queue] of producer.queues)
      gauge.set({ queue: name }, await queue.getWorkersCount().catch(() => 0))
  })
  metrics.gauge('queueOldestWaiting', async (gauge) => {
    gauge.reset()
    for (const [name, queue] of producer.queues) {
      const [oldest] = await queue.getJobs(['waiting', 'prioritized'], 0, 0, true).catch(() => [])
      gauge.set({ queue: name }, oldest ? (Date.now() - oldest.timestamp) / 1000 : 0)
    }
  })
  metrics.gauge('modelUp', async (gauge) => {
    gauge.reset()
    const states = await readComponentStatuses(producer.redis, queuePrefix, MODEL_COMPONENTS).catch(
      () => ({}),
    )
    for (const [component, status] of Object.entries(states)) {
      if (!status) continue
      const state = String(status.state ?? 'unknown')
      gauge.set({ component, model: String(status.model ?? ''), state }, state === 'ready' ? 1 : 0)
    }
  })
  app.get('/metrics', async (c) => {
    c.header('content-type', metrics.registry.contentType)
    return c.body(await metrics.registry.metrics())
  })
}
