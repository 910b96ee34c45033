import type { Logger } from '@rag/log'
import { withLogContext } from '@rag/log'
import pLimit, { type LimitFunction } from 'p-limit'
import type { z } from 'zod'
import { finalFailureOf } from './final-failure.ts'
import type { JobHandler } from './job-handler.ts'
import type { PipelineStep } from './pipeline.ts'
import type { Producer } from './producer.ts'

interface Lane {
  limit: LimitFunction
  handler: JobHandler<z.ZodType>
  onFinalFailure: ReturnType<PipelineStep<z.ZodType, unknown>['onFinalFailure']>
}

/** A job that gave its place to those waiting (JobContext.yieldTurn). */
class YieldedTurn extends Error {}

export interface DirectRunner {
  /** Hands jobs straight to the registered handlers; stands in for the queues' producer. */
  producer: Pick<Producer, 'enqueue' | 'enqueueAgain' | 'finalFailure'>
  /** Runs the step's handler and final-failure hook, built from `context` as a worker builds them. */
  register<S extends z.ZodType, Ctx>(step: PipelineStep<S, Ctx>, context: Ctx): void
  /** Resolves once no job is waiting or running (including jobs the finished ones handed on). */
  idle(): Promise<void>
  /** Jobs whose handler threw, with the error. */
  failures: { jobId: string; error: Error }[]
}

/**
 * Runs pipeline steps in this process without Redis: the same handlers the workers run, each queue
 * at most `concurrency` jobs at once, one attempt each (a failure is final, and its hook runs), a
 * duplicate id while pending absorbed as BullMQ absorbs it. The baseline `pnpm bench ingest`
 * measures the queued pipeline against.
 */
export function createDirectRunner({
  concurrency,
  logger,
}: {
  concurrency: number
  logger: Logger
}): DirectRunner {
  const lanes = new Map<string, Lane>()
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
    let yielded = false
    const run: Promise<void> = lane
      .limit(() =>
        withLogContext({ jobId, queue: definition.name }, () =>
          lane.handler(payload, {
            jobId,
            attempt: 1,
            lastAttempt: true,
            resumed: false,
            logger,
            progress: async () => undefined,
            yieldTurn: async () => {
              throw new YieldedTurn()
            },
          }),
        ),
      )
      .then(
        () => undefined,
        async (thrown: unknown) => {
          if (thrown instanceof YieldedTurn) {
            yielded = true
            return
          }
          const error = thrown instanceof Error ? thrown : new Error(String(thrown))
          failures.push({ jobId, error })
          await lane.onFinalFailure(payload, finalFailureOf(error.message)).catch((hookError: unknown) => {
            logger.error({ err: hookError, jobId }, 'could not record the failure')
          })
        },
      )
      .finally(async () => {
        pending.delete(key)
        running.delete(run)
        // Behind everything pending in its lane now: it runs again once they had their turn.
        if (yielded) await enqueue(definition, input)
      })
    running.add(run)
    return jobId
  }

  return {
    producer: { enqueue, enqueueAgain: enqueue, finalFailure: async () => null },
    register(step, context) {
      lanes.set(step.job.name, {
        limit: pLimit(concurrency),
        handler: step.handler(context) as JobHandler<z.ZodType>,
        onFinalFailure: step.onFinalFailure(context) as Lane['onFinalFailure'],
      })
    },
    async idle() {
      while (running.size > 0) await Promise.all([...running])
    },
    failures,
  }
}
