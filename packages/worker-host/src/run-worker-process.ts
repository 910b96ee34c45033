import { type Environment, type WorkerConfig, workerConfig } from '@rag/config'
import { createPool, migrate, type Pool } from '@rag/db'
import { createLogger, type Logger } from '@rag/log'
import { type JobDefinition, type JobHandler, startWorker, waitForRedis } from '@rag/queue'
import { createShutdown, type Shutdown } from '@rag/runtime'
import type { z } from 'zod'

export interface WorkerDeps {
  config: WorkerConfig
  pool: Pool
  logger: Logger
  shutdown: Shutdown
}

export interface WorkerProcessOptions<S extends z.ZodType> {
  /** Process name in logs, e.g. "worker-parse". */
  name: string
  definition: JobDefinition<S>
  env: Environment
  /** Builds the handler once per process (models are loaded here, not per job). */
  createHandler: (deps: WorkerDeps) => Promise<JobHandler<S>>
}

/**
 * The whole life of a worker process: parse its config (failing with the bad variable's name),
 * migrate, build the handler, consume the queue, and on SIGTERM/SIGINT finish the current job,
 * then close the worker and the pool.
 */
export async function runWorkerProcess<S extends z.ZodType>({
  name,
  definition,
  env,
  createHandler,
}: WorkerProcessOptions<S>): Promise<void> {
  const config = workerConfig.parse(env)
  const logger = createLogger({ name, level: config.log.level })
  const shutdown = createShutdown({ logger, timeoutMs: config.worker.shutdownTimeoutMs })
  shutdown.installSignalHandlers()

  const pool = createPool({
    url: config.database.url,
    schema: config.database.schema,
    max: config.database.poolMax,
    logger,
  })
  shutdown.add('database pool', () => pool.end())
  const embedding = config.models.embedding.model
    ? { model: config.models.embedding.model, dim: config.models.embedding.dim }
    : null
  await migrate(pool, { schema: config.database.schema, embedding, logger })
  await waitForRedis(config.redis.url).catch((error: unknown) => {
    // Not fatal: the worker's own connection waits for Redis; this only tells the operator why it idles.
    logger.warn({ err: error }, 'Redis not reachable yet; waiting for it')
  })

  const handler = await createHandler({ config, pool, logger, shutdown })
  const worker = startWorker({
    definition,
    handler,
    redisUrl: config.redis.url,
    prefix: config.redis.prefix,
    logger,
    concurrency: config.worker.concurrency,
  })
  // Closing waits for the jobs in progress; the shutdown deadline bounds it, and a job cut off
  // there is taken over by another worker once its lock expires.
  shutdown.add('worker', () => worker.close())
  logger.info({ queue: definition.name, concurrency: config.worker.concurrency }, 'worker ready')
}
