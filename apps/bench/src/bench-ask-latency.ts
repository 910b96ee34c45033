import { randomBytes } from 'node:crypto'
import type { BenchConfig } from '@rag/config'
import type { Pool } from '@rag/db'
import { createTestGateway, keywordOnlySearch } from '@rag/http-api/testing'
import { createLogger } from '@rag/log'
import { startQuestionWorkers } from '@rag/questions/testing'
import { createProducer } from '@rag/queue'
import { dropPrefix } from '@rag/queue/testing'
import { ms, percentile } from './percentile.ts'

const CONCURRENT = 200
const logger = createLogger({ name: 'bench', level: 'warn' })

/**
 * POST /ask → `done` (keyword, extractive: no model) through the real queues, the gateway and the
 * question workers in this process, followed through the event stream as the web page does. The
 * search's own time (the answer's timings.searchMs) is reported apart from the rest: the rest is
 * what the queue, the records and the events cost.
 */
export async function benchAskLatency(pool: Pool, config: BenchConfig, questions: string[]): Promise<void> {
  const prefix = `bench-ask-${randomBytes(3).toString('hex')}`
  const producer = await createProducer({ url: config.redisUrl, prefix })
  const retrieval = { ...keywordOnlySearch.retrieval, refusalThreshold: 0, rerankRefusalThreshold: 0 }
  const workers = startQuestionWorkers({
    pool,
    producer,
    logger,
    redisUrl: config.redisUrl,
    prefix,
    retrieval,
  })
  const gateway = await createTestGateway(
    { pool, producer, logger, redisUrl: config.redisUrl, prefix },
    { uploadDir: '/nonexistent', maxBytes: 1, maxFiles: 1 },
    { retrieval },
  )
  const askOnce = async (question: string) => {
    const started = performance.now()
    const response = await gateway.app.request('/ask', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question, options: { mode: 'keyword', answer: 'extractive', rerank: false } }),
    })
    if (response.status !== 202) throw new Error(`POST /ask: ${response.status} ${await response.text()}`)
    const { id } = (await response.json()) as { id: string }
    const events = await (await gateway.app.request(`/ask/${id}/events`)).text()
    const totalMs = performance.now() - started
    const done = JSON.parse(/event: done\ndata: (.*)/.exec(events)?.[1] ?? '{}') as {
      status?: string
      timings?: { searchMs?: number }
    }
    if (done.status !== 'done') throw new Error(`question ${id} ended ${done.status}`)
    const searchMs = done.timings?.searchMs ?? 0
    return { totalMs, searchMs, overheadMs: totalMs - searchMs }
  }
  try {
    const one: Awaited<ReturnType<typeof askOnce>>[] = []
    for (const question of questions.slice(0, 100)) one.push(await askOnce(question))
    const of = (key: keyof (typeof one)[number], p: number) =>
      ms(
        percentile(
          one.map((r) => r[key]),
          p,
        ),
      )
    console.log(
      `  POST /ask → done, one at a time: p50 ${of('totalMs', 50)}, p95 ${of('totalMs', 95)}; of which search ` +
        `p50 ${of('searchMs', 50)}; queue overhead (total − search) p50 ${of('overheadMs', 50)}, p95 ${of('overheadMs', 95)} (goal: p50 < 20 ms)`,
    )
    const started = performance.now()
    const many = await Promise.all(
      Array.from({ length: CONCURRENT }, (_, i) => askOnce(questions[i % questions.length] ?? '')),
    )
    const seconds = (performance.now() - started) / 1000
    const totals = many.map((r) => r.totalMs)
    console.log(
      `  ${CONCURRENT} at once: all done in ${seconds.toFixed(1)} s (${(CONCURRENT / seconds).toFixed(1)} questions/s), ` +
        `each p50 ${ms(percentile(totals, 50))}, p95 ${ms(percentile(totals, 95))}`,
    )
  } finally {
    await Promise.all(workers.map((worker) => worker.close()))
    await gateway.close()
    await producer.close()
    // The run's queues, question events and rate-limit counters: nothing is left in Redis.
    await dropPrefix(config.redisUrl, prefix)
  }
}
