import { createLogger } from '@rag/log'
import { createPlatformMetrics } from '@rag/metrics'
import { createProducer, parseJob, startWorker, UnrecoverableError } from '@rag/queue'
import { dropPrefix, testRedisUrl, uniquePrefix } from '@rag/queue/testing'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { startMetricsServer } from './metrics-server.ts'

// A worker's /metrics as Prometheus scrapes it: job durations by outcome and failures per queue.
const url = testRedisUrl()
const prefix = uniquePrefix('worker-metrics')
afterAll(() => dropPrefix(url, prefix))

const documentId = (n: number) => `00000000-0000-4000-8000-00000000000${n}`

describe("a worker's metrics endpoint", () => {
  it('counts completed and failed jobs per queue, with their durations', async () => {
    const metrics = createPlatformMetrics('worker-parse')
    const logger = createLogger({ name: 'test', level: 'silent' })
    const producer = await createProducer({ url, prefix })
    const worker = startWorker({
      definition: parseJob,
      redisUrl: url,
      prefix,
      logger,
      metrics,
      handler: async (payload) => {
        if (payload.documentId === documentId(2)) throw new UnrecoverableError('not a PDF file')
        return 'parsed'
      },
    })
    const server = await startMetricsServer(metrics, { port: 0, host: '127.0.0.1' })
    try {
      for (const n of [1, 2, 3])
        await producer.enqueue(parseJob, { documentId: documentId(n), contentHash: 'ab'.repeat(16) })
      const scrape = async () => {
        const response = await fetch(`http://127.0.0.1:${server.port}/metrics`)
        expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
        return response.text()
      }
      await vi.waitFor(
        async () => {
          const text = await scrape()
          expect(text).toMatch(
            /rag_job_duration_seconds_count\{[^}]*queue="ingest\.parse"[^}]*outcome="completed"[^}]*\} 2/,
          )
          expect(text).toMatch(/rag_job_failures_total\{[^}]*queue="ingest\.parse"[^}]*final="true"[^}]*\} 1/)
        },
        { timeout: 20_000 },
      )
      const text = await scrape()
      expect(text).toMatch(/process="worker-parse"/)
      expect(text).toMatch(/^rag_process_resident_memory_bytes/m)
      expect((await fetch(`http://127.0.0.1:${server.port}/other`)).status).toBe(404)
    } finally {
      await server.close()
      await worker.close()
      await producer.close()
    }
  })
})
