import { processEnvironment, watcherConfig } from '@rag/config'
import { openDatabase } from '@rag/db'
import { createLogger } from '@rag/log'
import { createProducer } from '@rag/queue'
import { announceReady, createShutdown, runMain, startLivenessFile } from '@rag/runtime'
import { credentialKeys, rotateCredentials, startSourceSchedule, startSourceSyncWorker } from '@rag/sources'
import { startFolderWatcher } from './folder-watcher.ts'

runMain(async () => {
  const env = processEnvironment()
  const config = watcherConfig.parse(env)
  const logger = createLogger({ name: 'watcher', ...config.log })
  const shutdown = createShutdown({ logger })
  shutdown.installSignalHandlers()
  const pool = await openDatabase({ ...config, logger, max: 2 })
  shutdown.add('database pool', () => pool.end())
  const producer = await createProducer({ url: config.redis.url, prefix: config.redis.prefix })
  shutdown.add('queues', () => producer.close())
  const watcher = startFolderWatcher(
    { pool, producer, logger },
    {
      dir: config.watch.dir || `${config.storage.dataDir}/inbox`,
      collection: config.watch.collection,
      uploadDir: config.storage.uploadDir,
      maxBytes: config.storage.maxUploadBytes,
    },
  )
  shutdown.add('folder watcher', () => watcher.close())
  await watcher.ready

  // Sources (web sites, Git, S3, WebDAV) are kept in sync here too: their syncs and schedule.
  const keys = credentialKeys(config.sources)
  if (keys) {
    const { resealed, unopened } = await rotateCredentials(pool, keys)
    if (resealed > 0) logger.info({ resealed }, "sources' credentials re-sealed under SOURCES_SECRET")
    if (unopened.length > 0)
      logger.warn(
        { sources: unopened },
        "these sources' credentials open with no SOURCES_SECRET given: enter them again",
      )
  }
  const registerOptions = { uploadDir: config.storage.uploadDir, maxBytes: config.storage.maxUploadBytes }
  const syncWorker = startSourceSyncWorker(
    { pool, producer, logger },
    {
      ...registerOptions,
      sources: config.sources,
      dataDir: config.storage.dataDir,
      env,
      redisUrl: config.redis.url,
      prefix: config.redis.prefix,
    },
  )
  shutdown.add('source syncs', () => syncWorker.close())
  const schedule = startSourceSchedule({ pool, producer, logger }, config.sources.scheduleCheckMs)
  shutdown.add('source schedule', () => schedule.close())
  if (config.liveness.file) {
    const stop = startLivenessFile({
      path: config.liveness.file,
      isAlive: async () => !shutdown.closing && (await producer.redis.ping()) === 'PONG',
      logger,
    })
    shutdown.add('liveness file', stop)
  }
  announceReady()
})
