import type { Logger } from '@rag/log'
import { withLogContext } from '@rag/log'
import type { PlatformMetrics } from '@rag/metrics'
import { DelayedError, UnrecoverableError, Worker } from 'bullmq'
import type { z } from 'zod'
import { type FinalFailure, finalFailureOf } from './final-failure.ts'
import type { JobDefinition } from './job-definition.ts'
import type { JobHandler } from './job-handler.ts'
import type { PipelineStep } from './pipeline.ts'
import { redisConnectionOptions } from './redis-connection.ts'

export interface StartWorkerOptions<S extends z.ZodType> {
  definition: JobDefinition<S>
  handler: JobHandler<S>
  redisUrl: string
  prefix: string
  logger: Logger
  concurrency?: number
  /** How long a job may run without renewing its lock before another worker takes it over. */
  lockDurationMs?: number
  /** Called once a job will not be tried again (attempts used up, unrecoverable, or stalled too often). */
  onFinalFailure?: (payload: z.output<S>, failure: FinalFailure) => Promise<void>
  /** Job durations and failures per queue are recorded here (Prometheus). */
  metrics?: Pick<PlatformMetrics, 'jobDuration' | 'jobFailures'>
}

/** A BullMQ worker that validates each payload, logs with the job id, and fails unfixable jobs once. */
export function startWorker<S extends z.ZodType>({
  definition,
  handler,
  redisUrl,
  prefix,
  logger,
  concurrency = 1,
  lockDurationMs = 30000,
  onFinalFailure,
  metrics,
}: StartWorkerOptions<S>): Worker {
  const worker = new Worker(
    definition.name,
    (job, token) =>
      withLogContext({ jobId: job.id, queue: definition.name }, async () => {
        const parsed = definition.payload.safeParse(job.data)
        if (!parsed.success) {
          // Retrying cannot fix a malformed payload.
          throw new UnrecoverableError(`invalid ${definition.name} payload: ${parsed.error.message}`)
        }
        logger.debug({ attempt: job.attemptsMade + 1 }, 'job started')
        const attempt = job.attemptsMade + 1
        const end = metrics?.jobDuration.startTimer({ queue: definition.name })
        const outcome = handler(parsed.data, {
          jobId: job.id ?? '',
          attempt,
          lastAttempt: attempt >= (job.opts.attempts ?? 1),
          resumed: attempt > 1 || (job.stalledCounter ?? 0) > 0,
          logger,
          progress: (fraction) => job.updateProgress(Math.round(fraction * 100)),
          async yieldTurn() {
            // Back to the queue now: promoted at once into its place by priority, behind those
            // already there (BullMQ's way for a processor to put its job back: not a failure).
            await job.moveToDelayed(Date.now(), token)
            throw new DelayedError()
          },
        })
        if (end)
          outcome.then(
            () => end({ outcome: 'completed' }),
            () => end({ outcome: 'failed' }),
          )
        return outcome
      }),
    {
      connection: redisConnectionOptions(redisUrl, 'worker'),
      prefix,
      concurrency,
      lockDuration: lockDurationMs,
      // Look for jobs of dead workers as often as a lock can expire.
      stalledInterval: lockDurationMs,
    },
  )
  worker.on('failed', (job, error) => {
    withLogContext({ jobId: job?.id, queue: definition.name }, () =>
      logger.warn({ err: error, attempt: job?.attemptsMade }, 'job failed'),
    )
    const final =
      error instanceof UnrecoverableError ||
      (job !== undefined && job.attemptsMade >= (job.opts.attempts ?? 1))
    metrics?.jobFailures.inc({ queue: definition.name, final: String(final) })
    if (job && final && onFinalFailure) {
      onFinalFailure(job.data, finalFailureOf(error.message)).catch((hookError) =>
        logger.error({ err: hookError, jobId: job.id }, 'could not record the failure'),
      )
    }
  })
  worker.on('error', (error) => logger.error({ err: error }, 'worker error'))
  return worker
}

export { UnrecoverableError }

export type StepWorkerOptions = Omit<
  StartWorkerOptions<z.ZodType>,
  'definition' | 'handler' | 'onFinalFailure'
>

/** A pipeline step's worker: its job, the handler and final-failure hook it builds from `context`. */
export function startStepWorker<S extends z.ZodType, Ctx>(
  step: PipelineStep<S, Ctx>,
  context: Ctx,
  options: StepWorkerOptions,
): Worker {
  return startWorker<S>({
    ...options,
    definition: step.job,
    handler: step.handler(context),
    onFinalFailure: step.onFinalFailure(context),
  })
}
