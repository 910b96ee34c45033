import { fileURLToPath } from 'node:url'
import { processEnvironment, supervisorConfig } from '@rag/config'
import { openDatabase, startEmbeddedPostgres } from '@rag/db'
import { createLineFormatter, createLogger } from '@rag/log'
import { processCommands } from '@rag/process-catalog'
import { claimDataDir, ProcessSupervisor } from '@rag/process-supervisor'
import { createProducer } from '@rag/queue'
import { createShutdown, runMain } from '@rag/runtime'
import { adviseOnEmbeddedSize } from './embedded-advice.ts'
import { resolveRedis } from './local-redis.ts'
import { seedSamples } from './seed-samples.ts'
import { waitForGateway } from './wait-for-gateway.ts'

const SAMPLE_DIR = fileURLToPath(new URL('../../../data/sample', import.meta.url))

// `pnpm start`: the whole platform on one machine. Without DATABASE_URL it serves an embedded
// PGlite (persisted under DATA_DIR) to every process; without REDIS_URL it finds or starts a Redis.
runMain(async () => {
  const env = processEnvironment()
  const config = supervisorConfig.parse(env)
  // One stream for people or for log tools: every process's lines in the same format.
  const programs = processCommands(undefined, { metricsPort: config.worker.metricsPort })
  const format = config.log.format === 'auto' ? (process.stdout.isTTY ? 'pretty' : 'json') : config.log.format
  const formatLine = createLineFormatter({
    format,
    colorize: format === 'pretty' && process.stdout.isTTY === true,
    names: ['supervisor', ...programs.map((program) => program.name)],
  })
  const logger = createLogger({
    name: 'supervisor',
    level: config.log.level,
    destination: {
      write: (text: string) => {
        for (const line of text.split('\n')) {
          const formatted = line ? formatLine('supervisor', line, 'stdout') : undefined
          if (formatted !== undefined) process.stdout.write(`${formatted}\n`)
        }
      },
    },
  })
  const shutdown = createShutdown({ logger, timeoutMs: 30000 })
  shutdown.installSignalHandlers()
  // One platform per data folder: a second would share the first one's database and queues.
  const claim = await claimDataDir(config.storage.dataDir)
  shutdown.add('data folder claim', () => claim.release())

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
  const baseUrl = `http://127.0.0.1:${config.gateway.port}`
  // Written into the data folder's claim: `pnpm eval` and `pnpm rag` on it find these without settings.
  await claim.announce({ databaseUrl, redisUrl: redis.url, gatewayUrl: baseUrl })

  // Migrate once here so the children start against a ready schema instead of queueing on the lock.
  const pool = await openDatabase({ ...config, logger, url: databaseUrl, max: 2 })
  shutdown.add('database pool', () => pool.end())
  if (!config.database.url) await adviseOnEmbeddedSize(pool, logger)

  const supervisor = new ProcessSupervisor({
    programs,
    // The children write JSON; the supervisor formats it (formatLine).
    env: { ...env, DATABASE_URL: databaseUrl, ...redis.childEnv, LOG_FORMAT: 'json' },
    output: process.stdout,
    formatLine,
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
  if (await waitForGateway(baseUrl))
    logger.info(
      {
        webApp: `${baseUrl}/`,
        apiDocs: `${baseUrl}/docs`,
        dashboard: `${baseUrl}/admin/queues`,
        health: `${baseUrl}/healthz`,
      },
      `ready: open ${baseUrl}/ (Ctrl-C stops everything)`,
    )
  else logger.warn({ health: `${baseUrl}/healthz` }, 'the gateway is not answering yet; see its lines above')
})
