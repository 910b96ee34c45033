import { fileURLToPath } from 'node:url'
import { processEnvironment, supervisorConfig } from '@rag/config'
import { openDatabase, startEmbeddedPostgres } from '@rag/db'
import { createLogger } from '@rag/log'
import { ProcessSupervisor, platformPrograms } from '@rag/process-supervisor'
import { createProducer } from '@rag/queue'
import { createShutdown, runMain } from '@rag/runtime'
import { resolveRedis } from './local-redis.ts'
import { seedSamples } from './seed-samples.ts'

const SAMPLE_DIR = fileURLToPath(new URL('../../../data/sample', import.meta.url))

// `pnpm start`: the whole platform on one machine. Without DATABASE_URL it serves an embedded
// PGlite (persisted under DATA_DIR) to every process; without REDIS_URL it finds or starts a Redis.
runMain(async () => {
  const env = processEnvironment()
  const config = supervisorConfig.parse(env)
  const logger = createLogger({ name: 'supervisor', level: config.log.level })
  const shutdown = createShutdown({ logger, timeoutMs: 30000 })
  shutdown.installSignalHandlers()

  let databaseUrl = config.database.url
  if (!databaseUrl) {
    const dir = config.supervisor.pgliteDir ?? `${config.storage.dataDir}/pglite`
    const embedded = await startEmbeddedPostgres({
      dir,
      port: config.supervisor.pglitePort,
      maxConnections: config.supervisor.pgliteMaxConnections,
    })
    shutdown.add('embedded database', () => embedded.close())
    databaseUrl = embedded.url
    logger.info({ dir, url: embedded.url }, 'embedded database (PGlite + pgvector) ready')
  }
  const redis = await resolveRedis(config.redis, { dataDir: config.storage.dataDir, logger })
  shutdown.add('redis', () => redis.close())

  // Migrate once here so the children start against a ready schema instead of queueing on the lock.
  const pool = await openDatabase({ ...config, logger, url: databaseUrl, max: 2 })
  shutdown.add('database pool', () => pool.end())

  const supervisor = new ProcessSupervisor({
    programs: platformPrograms(),
    env: { ...env, DATABASE_URL: databaseUrl, REDIS_URL: redis.url },
    output: process.stdout,
    restartDelayMs: config.supervisor.restartDelayMs,
  })
  shutdown.add('processes', () => supervisor.stop())
  supervisor.start()
  if (config.supervisor.seedSampleData) {
    const producer = await createProducer({ url: redis.url, prefix: config.redis.prefix })
    try {
      await seedSamples(
        { pool, producer, logger },
        {
          sampleDir: SAMPLE_DIR,
          uploadDir: config.storage.uploadDir,
          maxBytes: config.storage.maxUploadBytes,
        },
      )
    } finally {
      await producer.close()
    }
  }
  logger.info(
    {
      webApp: `http://127.0.0.1:${config.gateway.port}/`,
      apiDocs: `http://127.0.0.1:${config.gateway.port}/docs`,
      dashboard: `http://127.0.0.1:${config.gateway.port}/admin/queues`,
      health: `http://127.0.0.1:${config.gateway.port}/healthz`,
    },
    'platform starting',
  )
})
