import {
  type Environment,
  type WorkerConfig,
  type WorkerConfigOf,
  type WorkerName,
  workerConfigs,
} from '@rag/config'
import { openDatabase, type Pool } from '@rag/db'
import { createLogger, type Logger } from '@rag/log'
import { createPlatformMetrics, type PlatformMetrics } from '@rag/metrics'
import { createProducer, type JobDefinition, type JobHandler, type Producer, startWorker } from '@rag/queue'
import { createShutdown, type Shutdown, startLivenessFile } from '@rag/runtime'
import type { z } from 'zod'
import { startMetricsServer } from './metrics-server.ts'

export interface WorkerDeps<C extends WorkerConfig = WorkerConfig> {
  config: C
  pool: Pool
  /** For enqueueing the next stage's jobs. */
  producer: Producer
  logger: Logger
  shutdown: Shutdown
  /** This process's metrics (its /metrics when METRICS_PORT is set): models time their calls here. */
  metrics: PlatformMetrics
}

/** A worker outlives Redis being away: it keeps trying to connect instead of exiting. */
async function connectProducer(config: WorkerConfig, logger: Logger, shutdown: Shutdown): Promise<Producer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await createProducer({ url: config.redis.url, prefix: config.redis.prefix })
    } catch (error) {
      if (shutdown.closing) throw error
      if (attempt === 1) logger.warn({ err: error }, 'Redis not reachable yet; waiting for it')
      await new Promise((resolve) => setTimeout(resolve, Math.min(attempt * 500, 5000)))
    }
  }
}

export interface WorkerProcessOptions<S extends z.ZodType, N extends WorkerName> {
  /** Process name in logs, e.g. "worker-parse"; also picks its config schema. */
  name: N
  definition: JobDefinition<S>
  env: Environment
  /** Builds the handler once per process (models are loaded here, not per job). */
  createHandler: (deps: WorkerDeps<WorkerConfigOf<N>>) => Promise<JobHandler<S>>
  /** Jobs at once, when the stage has its own setting (the LLM's sequences); else WORKER_CONCURRENCY. */
  concurrency?: (config: WorkerConfigOf<N>) => number
  /** Records a job that will not be tried again (e.g. fails the question it belonged to). */
  onFinalFailure?: (deps: WorkerDeps<WorkerConfigOf<N>>) => (payload: unknown, error: Error) => Promise<void>
}

/**
 * The whole life of a worker process: parse its config (failing with the bad variable's name),
 * migrate, build the handler, consume the queue, and on SIGTERM/SIGINT finish the current job,
 * then close the worker and the pool.
 */
export async function runWorkerProcess<S extends z.ZodType, N extends WorkerName>({
  name,
  definition,
  env,
  createHandler,
  concurrency: concurrencyOf,
  onFinalFailure,
}: WorkerProcessOptions<S, N>): Promise<void> {
  const config = workerConfigs[name].parse(env) as WorkerConfigOf<N>
  const logger = createLogger({ name, ...config.log })
  const shutdown = createShutdown({ logger, timeoutMs: config.worker.shutdownTimeoutMs })
  shutdown.installSignalHandlers()

  const pool = await openDatabase({ ...config, logger })
  shutdown.add('database pool', () => pool.end())
  const producer = await connectProducer(config, logger, shutdown)
  shutdown.add('producer', () => producer.close())

  const metrics = createPlatformMetrics(name)
  const deps = { config, pool, producer, logger, shutdown, metrics }
  const handler = await createHandler(deps)
  const concurrency = concurrencyOf ? concurrencyOf(config) : config.worker.concurrency
  const worker = startWorker({
    metrics,
    definition,
    handler,
    redisUrl: config.redis.url,
    prefix: config.redis.prefix,
    logger,
    concurrency,
    lockDurationMs: config.worker.lockDurationMs,
    onFinalFailure: onFinalFailure?.(deps),
  })
  // Closing waits for the jobs in progress; the shutdown deadline bounds it, and a job cut off
  // there is taken over by another worker once its lock expires.
  shutdown.add('worker', () => worker.close())
  if (config.worker.metricsPort > 0) {
    const server = await startMetricsServer(metrics, { port: config.worker.metricsPort })
    shutdown.add('metrics endpoint', () => server.close())
  }
  if (config.liveness.file) {
    const stop = startLivenessFile({
      path: config.liveness.file,
      isAlive: async () =>
        worker.isRunning() && !shutdown.closing && (await producer.redis.ping()) === 'PONG',
      logger,
    })
    shutdown.add('liveness file', stop)
  }
  logger.info({ queue: definition.name, concurrency }, 'worker ready')
}
