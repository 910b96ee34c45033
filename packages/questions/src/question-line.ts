import type { Pool } from '@rag/db'
import type { Producer } from '@rag/queue'
import { jobOfStep, nextStep, type RoutedQuestion } from './question-route.ts'
import type { QueueSpot } from './watch-question.ts'

/** Job states in which a job waits its turn (it has not started). */
const WAITING = new Set(['waiting', 'prioritized', 'delayed', 'waiting-children'])

type Queues = Pick<Producer, 'queues'>

/** The job a question waits on (its next step's), with its queue, or null when finished. */
async function nextJobOf(producer: Queues, question: RoutedQuestion & { id: string }) {
  const step = nextStep(question)
  if (!step) return null
  const { definition, payload } = jobOfStep(step, question.id)
  const queue = producer.queues.get(definition.name)
  if (!queue) return null
  const jobId = definition.jobId(definition.payload.parse(payload))
  return { queue, jobId }
}

/**
 * Whether a question is waiting its turn in a queue some worker serves: it makes no progress of
 * its own, so the no-progress limit must not fail it (a burst of questions waits behind the LLM).
 */
export async function waitsItsTurn(
  producer: Queues,
  question: RoutedQuestion & { id: string },
): Promise<boolean> {
  const next = await nextJobOf(producer, question)
  if (!next) return false
  const job = await next.queue.getJob(next.jobId)
  if (!job || !WAITING.has(await job.getState())) return false
  return (await next.queue.getWorkersCount()) > 0
}

/** The LLM's recent answers' generation time, seconds (the last 20; 30 s before any answer). */
async function recentGenerationSeconds(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ ms: number | null }>(
    `SELECT avg((timings->>'generateMs')::float8) AS ms FROM (
       SELECT timings FROM questions WHERE status = 'done' AND timings ? 'generateMs'
        ORDER BY updated_at DESC LIMIT 20) recent`,
  )
  return (rows[0]?.ms ?? 30_000) / 1000
}

/**
 * Where a question handed to the LLM stands in its line: how many are before it (1 = next) and
 * about how long until its turn, from the recent answers' generation time. Null when it does not
 * wait for the LLM (not yet handed over, already being written, finished).
 */
export async function queueSpotOf(
  deps: { pool: Pool; producer: Queues & Pick<Producer, 'redis'> },
  question: RoutedQuestion & { id: string },
): Promise<QueueSpot | null> {
  if (question.status !== 'generating') return null
  const next = await nextJobOf(deps.producer, question)
  if (!next) return null
  const job = await next.queue.getJob(next.jobId)
  if (!job || !WAITING.has(await job.getState())) return null
  // BullMQ pushes a new job at the head of the wait list and takes work from its tail.
  const [index, length, active, workers] = await Promise.all([
    deps.producer.redis.lpos(next.queue.keys.wait ?? '', next.jobId),
    deps.producer.redis.llen(next.queue.keys.wait ?? ''),
    next.queue.getActiveCount(),
    next.queue.getWorkersCount(),
  ])
  const ahead = index === null ? 0 : Math.max(0, length - 1 - index)
  const seconds = await recentGenerationSeconds(deps.pool)
  // Each answer being written is, on average, half done.
  const wait = ((ahead + active / 2) * seconds) / Math.max(1, workers)
  return { position: ahead + 1, estimatedWaitSeconds: Math.round(wait) }
}
