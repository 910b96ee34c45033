import { setPriority } from 'node:os'
import type { Environment, WorkerConfig, WorkerConfigOf } from '@rag/config'
import { openDatabase, type Pool } from '@rag/db'
import { createLogger, type Logger } from '@rag/log'
import { createPlatformMetrics, type PlatformMetrics } from '@rag/metrics'
import { PROCESSES, type WorkerProcessName } from '@rag/process-catalog'
import { createProducer, type PipelineStep, type Producer, startStepWorker } from '@rag/queue'
import { announceReady, createShutdown, type Shutdown, startLivenessFile } from '@rag/runtime'
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

export interface WorkerProcessOptions<N extends WorkerProcessName, Ctx> {
  /** The process, as the catalog names it: its config schema and the pipeline step it runs. */
  name: N
  /** The pipeline whose step (the catalog's) this process runs. */
  pipeline: { readonly [step: string]: PipelineStep<z.ZodType, Ctx> }
  env: Environment
  /** Builds the steps' context once per process (models are loaded here, not per job). */
  context: (deps: WorkerDeps<WorkerConfigOf<N>>) => Ctx | Promise<Ctx>
  /** Jobs at once, when the stage has its own setting (the LLM's sequences); else WORKER_CONCURRENCY. */
  concurrency?: (config: WorkerConfigOf<N>) => number
}

/**
 * The whole life of a worker process: parse its config (failing with the bad variable's name),
 * migrate, build the context, consume the queue of its pipeline step, and on SIGTERM/SIGINT
 * finish the current job, then close the worker and the pool.
 */
export async function runWorkerProcess<N extends WorkerProcessName, Ctx>({
  name,
  pipeline,
  env,
  context: contextOf,
  concurrency: concurrencyOf,
}: WorkerProcessOptions<N, Ctx>): Promise<void> {
  const entry = PROCESSES[name]
  const step = pipeline[entry.step]
  if (!step || step.job.name !== entry.queue)
    throw new Error(`${name} runs ${entry.queue}, which the pipeline given has no step for`)
  const config = entry.config.parse(env) as WorkerConfigOf<N>
  const logger = createLogger({ name, ...config.log })
  // Ingestion is background work: it yields the CPU to the question workers (a person waits on those).
  if (entry.pipeline === 'ingestion' && config.worker.ingestNiceness > 0) {
    try {
      setPriority(config.worker.ingestNiceness)
    } catch (error) {
      logger.warn({ err: error }, 'could not lower this process priority (INGEST_NICENESS)')
    }
  }
  const shutdown = createShutdown({ logger, timeoutMs: config.worker.shutdownTimeoutMs })
  shutdown.installSignalHandlers()

  const pool = await openDatabase({ ...config, logger })
  shutdown.add('database pool', () => pool.end())
  const producer = await connectProducer(config, logger, shutdown)
  shutdown.add('producer', () => producer.close())

  const metrics = createPlatformMetrics(name)
  const context = await contextOf({ config, pool, producer, logger, shutdown, metrics })
  const concurrency = concurrencyOf ? concurrencyOf(config) : config.worker.concurrency
  const worker = startStepWorker(step, context, {
    metrics,
    redisUrl: config.redis.url,
    prefix: config.redis.prefix,
    logger,
    concurrency,
    lockDurationMs: config.worker.lockDurationMs,
  })
  // Closing waits for the jobs in progress; the shutdown deadline bounds it, and a job cut off
  // there is taken over by another worker once its lock expires.
  shutdown.add('worker', () => worker.close())
  if (config.worker.metricsPort > 0) {
    const server = await startMetricsServer(metrics, {
      port: config.worker.metricsPort,
      host: config.worker.metricsHost,
    })
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
  logger.info({ queue: step.job.name, concurrency }, 'worker ready')
  announceReady()
}
