import type { Logger } from '@rag/log'
import { withLogContext } from '@rag/log'
import pLimit, { type LimitFunction } from 'p-limit'
import type { z } from 'zod'
import type { JobDefinition } from './job-definition.ts'
import type { Producer } from './producer.ts'
import type { JobHandler } from './start-worker.ts'

export interface DirectRunner {
  /** Hands jobs straight to the registered handlers; stands in for the queues' producer. */
  producer: Pick<Producer, 'enqueue' | 'enqueueAgain' | 'finalFailure'>
  register<S extends z.ZodType>(definition: JobDefinition<S>, handler: JobHandler<S>): void
  /** Resolves once no job is waiting or running (including jobs the finished ones handed on). */
  idle(): Promise<void>
  /** Jobs whose handler threw, with the error. */
  failures: { jobId: string; error: Error }[]
}

/**
 * Runs job handlers in this process without Redis: the same handlers the workers run, each queue
 * at most `concurrency` jobs at once, one attempt each, a duplicate id while pending absorbed as
 * BullMQ absorbs it. The baseline `pnpm bench ingest` measures the queued pipeline against.
 */
export function createDirectRunner({
  concurrency,
  logger,
}: {
  concurrency: number
  logger: Logger
}): DirectRunner {
  const lanes = new Map<string, { limit: LimitFunction; handler: JobHandler<z.ZodType> }>()
  const pending = new Set<string>()
  const running = new Set<Promise<void>>()
  const failures: DirectRunner['failures'] = []

  const enqueue: DirectRunner['producer']['enqueue'] = async (definition, input) => {
    const lane = lanes.get(definition.name)
    if (!lane) throw new Error(`no handler registered for ${definition.name}`)
    const payload = definition.payload.parse(input)
    const jobId = definition.jobId(payload)
    const key = `${definition.name}:${jobId}`
    if (pending.has(key)) return jobId
    pending.add(key)
    const run = lane
      .limit(() =>
        withLogContext({ jobId, queue: definition.name }, () =>
          lane.handler(payload, {
            jobId,
            attempt: 1,
            lastAttempt: true,
            resumed: false,
            logger,
            progress: async () => undefined,
          }),
        ),
      )
      .then(
        () => undefined,
        (error: unknown) => {
          failures.push({ jobId, error: error instanceof Error ? error : new Error(String(error)) })
        },
      )
      .finally(() => {
        pending.delete(key)
        running.delete(run)
      })
    running.add(run)
    return jobId
  }

  return {
    producer: { enqueue, enqueueAgain: enqueue, finalFailure: async () => null },
    register(definition, handler) {
      lanes.set(definition.name, { limit: pLimit(concurrency), handler: handler as JobHandler<z.ZodType> })
    },
    async idle() {
      while (running.size > 0) await Promise.all([...running])
    },
    failures,
  }
}
