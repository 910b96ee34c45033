import { type JobsOptions, Queue } from 'bullmq'
import type { Redis } from 'ioredis'
import type { z } from 'zod'
import { type FinalFailure, finalFailureOf } from './final-failure.ts'
import { DEFAULT_JOB_OPTIONS, type JobDefinition } from './job-definition.ts'
import { ALL_JOBS } from './jobs.ts'
import { connectRedis, createRedisClient, redisConnectionOptions, waitForRedis } from './redis-connection.ts'

export interface Producer {
  queues: Map<string, Queue>
  /** A plain client on the same Redis, for health checks. */
  redis: Redis
  /** Validates the payload, then adds the job under its deterministic id (a duplicate is a no-op). */
  enqueue<S extends z.ZodType>(
    definition: JobDefinition<S>,
    payload: z.input<S>,
    options?: JobsOptions,
  ): Promise<string>
  /**
   * Like enqueue, but a finished (completed or failed) job under the same id is removed first, so
   * the work runs again: for re-indexing and for the reconciler resuming a stuck document. A job
   * still waiting or running is left alone.
   */
  enqueueAgain<S extends z.ZodType>(
    definition: JobDefinition<S>,
    payload: z.input<S>,
    options?: JobsOptions,
  ): Promise<string>
  /**
   * Why the job for this payload failed for good (attempts used up, or unrecoverable, or stalled
   * too often), or null when it has not: the reconciler must not start such a job over.
   */
  finalFailure<S extends z.ZodType>(
    definition: JobDefinition<S>,
    payload: z.input<S>,
  ): Promise<FinalFailure | null>
  close(): Promise<void>
}

const PENDING_STATES = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children'])

/**
 * Connects to every queue. Rejects with a RedisUnavailableError when Redis does not answer; once
 * connected, an enqueue while Redis is down rejects at once (no offline queue) instead of hanging.
 */
export async function createProducer({ url, prefix }: { url: string; prefix: string }): Promise<Producer> {
  await waitForRedis(url)
  const connection = redisConnectionOptions(url, 'producer')
  const queues = new Map<string, Queue>(
    ALL_JOBS.map((job) => [job.name, new Queue(job.name, { connection, prefix })]),
  )
  // Connection errors surface on the commands that hit them; the event would only repeat them.
  for (const queue of queues.values()) queue.on('error', () => undefined)
  await Promise.all([...queues.values()].map((queue) => queue.waitUntilReady()))
  const redis = createRedisClient(url)
  await connectRedis(redis)
  const producer: Producer = {
    queues,
    redis,
    async enqueue(definition, input, options) {
      const queue = queues.get(definition.name)
      if (!queue) throw new Error(`unknown queue ${definition.name}`)
      const payload = definition.payload.parse(input)
      const jobId = definition.jobId(payload)
      const priority = definition.priority?.(payload)
      await queue.add(definition.name, payload, {
        ...DEFAULT_JOB_OPTIONS,
        ...definition.options,
        ...(priority === undefined ? {} : { priority }),
        ...options,
        jobId,
      })
      return jobId
    },
    async enqueueAgain(definition, input, options) {
      const queue = queues.get(definition.name)
      if (!queue) throw new Error(`unknown queue ${definition.name}`)
      const jobId = definition.jobId(definition.payload.parse(input))
      const existing = await queue.getJob(jobId)
      if (existing) {
        const state = await existing.getState()
        // Only a job that will still run is kept. Anything else goes: finished jobs, and orphans
        // ("unknown": Redis lost the queue's lists but a worker finishing the job wrote parts of
        // it back), which would otherwise swallow the new job as a duplicate forever. A job still
        // locked by such a worker cannot be removed yet; the caller's next attempt will.
        if (!PENDING_STATES.has(state)) await existing.remove()
      }
      return producer.enqueue(definition, input, options)
    },
    async finalFailure(definition, input) {
      const queue = queues.get(definition.name)
      if (!queue) throw new Error(`unknown queue ${definition.name}`)
      const job = await queue.getJob(definition.jobId(definition.payload.parse(input)))
      if (!job || (await job.getState()) !== 'failed') return null
      const failure = finalFailureOf(job.failedReason || 'failed')
      const exhausted = job.attemptsMade >= (job.opts.attempts ?? 1)
      return exhausted || failure.stalled || job.finishedOn !== undefined ? failure : null
    },
    async close() {
      await Promise.allSettled([...queues.values()].map((queue) => queue.close()))
      redis.disconnect()
    },
  }
  return producer
}
