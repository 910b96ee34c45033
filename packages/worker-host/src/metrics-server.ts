import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { PlatformMetrics } from '@rag/metrics'

/** GET /metrics of a worker process (Prometheus text format) on its own port; anything else 404. */
export async function startMetricsServer(
  metrics: PlatformMetrics,
  { port, host = '127.0.0.1' }: { port: number; host?: string },
): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404).end('only GET /metrics here\n')
      return
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      (error: unknown) => response.writeHead(500).end(String(error)),
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
