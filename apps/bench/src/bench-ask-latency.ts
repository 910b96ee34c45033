import { randomBytes } from 'node:crypto'
import type { BenchConfig } from '@rag/config'
import type { Pool } from '@rag/db'
import { createTestGateway, keywordOnlySearch } from '@rag/http-api/testing'
import { createLogger } from '@rag/log'
import { startQuestionWorkers } from '@rag/questions/testing'
import { createProducer } from '@rag/queue'
import { dropPrefix } from '@rag/queue/testing'
import { benchPrefix } from './bench-run.ts'
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
  const prefix = benchPrefix(config, `ask-${randomBytes(3).toString('hex')}`)
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
  const options = { mode: 'keyword', answer: 'extractive', rerank: false }
  /** Asked alone, or as the next message of a conversation (its history carried and rewritten). */
  const askOnce = async (question: string, conversationId?: string) => {
    const started = performance.now()
    const response = await gateway.app.request(
      conversationId ? `/conversations/${conversationId}/messages` : '/ask',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(conversationId ? { message: question, options } : { question, options }),
      },
    )
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
    // Conversations of 5 turns (the same questions, asked in order in a thread): what carrying and
    // rewriting the history costs per turn, against the same questions asked alone.
    const turns: { turn: number; alone: number; threaded: number }[] = []
    for (let thread = 0; thread < 10; thread++) {
      const created = await gateway.app.request('/conversations', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
      const { id } = (await created.json()) as { id: string }
      for (let turn = 0; turn < 5; turn++) {
        const question = questions[(thread * 5 + turn) % questions.length] ?? ''
        const alone = await askOnce(question)
        const threaded = await askOnce(question, id)
        turns.push({ turn, alone: alone.overheadMs, threaded: threaded.overheadMs })
      }
    }
    const extra = (turn: number) =>
      percentile(
        turns.filter((t) => t.turn === turn).map((t) => t.threaded - t.alone),
        50,
      )
    console.log(
      `  5-turn conversations (10, keyword, extractive): history handling per turn (threaded − alone, search excluded) p50 ` +
        `${[0, 1, 2, 3, 4].map((turn) => `turn ${turn + 1} ${ms(extra(turn))}`).join(', ')}`,
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
