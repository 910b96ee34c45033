import type { Pool } from '@rag/db'
import type { Producer } from '@rag/queue'
import { earlierAnswersOfAsker } from './answer-turns.ts'
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
 * Whether a question is waiting its turn in a queue some worker serves, or for its answer to be
 * handed to a served LLM queue (answer-turns.ts): it makes no progress of its own, so the
 * no-progress limit must not fail it (a burst of questions waits behind the LLM). A job a worker
 * took up less than `limitSeconds` ago counts too: its handler has yet to mark the question as
 * moving, and a question that waited longer than the limit would otherwise fail as its turn came.
 */
export async function waitsItsTurn(
  deps: { pool: Pool; producer: Queues },
  question: RoutedQuestion & { id: string },
  limitSeconds = 0,
): Promise<boolean> {
  const next = await nextJobOf(deps.producer, question)
  if (!next) return false
  if ((await next.queue.getWorkersCount()) === 0) return false
  const job = await next.queue.getJob(next.jobId)
  if (job) {
    const state = await job.getState()
    if (state === 'active') return Date.now() - (job.processedOn ?? 0) < limitSeconds * 1000
    return WAITING.has(state)
  }
  // An answer without its job waits to be handed on: when its asker's earlier answer ends (which
  // may be being stopped right now), or by the reconciler if that hand-off was lost.
  return nextStep(question) === 'answer'
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
 * about how long until its turn, from the recent answers' generation time. A job with a priority
 * waits in the queue's prioritized set behind every job without one (and behind lower scores); an
 * answer still waiting for its asker's earlier one counts those and everything in the queue now.
 * Null when it does not wait for the LLM (not yet handed over, already being written, finished).
 */
export async function queueSpotOf(
  deps: { pool: Pool; producer: Queues & Pick<Producer, 'redis'> },
  question: RoutedQuestion & { id: string },
): Promise<QueueSpot | null> {
  if (question.status !== 'generating') return null
  const next = await nextJobOf(deps.producer, question)
  if (!next) return null
  const { keys } = next.queue
  const job = await next.queue.getJob(next.jobId)
  const state = job ? await job.getState() : null
  if (job && !WAITING.has(state ?? '')) return null
  const [waiting, prioritized, rank, active, workers, earlier] = await Promise.all([
    deps.producer.redis.llen(keys.wait ?? ''),
    deps.producer.redis.zcard(keys.prioritized ?? ''),
    job ? deps.producer.redis.zrank(keys.prioritized ?? '', next.jobId) : Promise.resolve(null),
    next.queue.getActiveCount(),
    next.queue.getWorkersCount(),
    job ? Promise.resolve(0) : earlierAnswersOfAsker(deps.pool, question.id),
  ])
  // In the prioritized set: the jobs without a priority, then those before it. Not yet queued:
  // everything queued now, and its asker's earlier answers but the first (being written, or
  // queued and so counted already).
  const ahead = job ? waiting + (rank ?? prioritized) : waiting + prioritized + Math.max(0, earlier - 1)
  const seconds = await recentGenerationSeconds(deps.pool)
  // Each answer being written is, on average, half done.
  const wait = ((ahead + active / 2) * seconds) / Math.max(1, workers)
  return { position: ahead + 1, estimatedWaitSeconds: Math.round(wait) }
}
