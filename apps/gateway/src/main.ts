import { fileURLToPath } from 'node:url'
import { serve } from '@hono/node-server'
import { pruneAudit, pruneKeySessions, pruneUserSessions } from '@rag/access'
import { gatewayConfig, processEnvironment } from '@rag/config'
import { openDatabase, openReadReplica } from '@rag/db'
import { embedderProvider } from '@rag/embeddings'
import { createApp, listeningHost } from '@rag/http-api'
import { reconcileDocuments } from '@rag/ingest'
import { createLogger } from '@rag/log'
import {
  deleteExpiredQuestions,
  failStalledQuestions,
  reconcileQuestions,
  waitsItsTurn,
} from '@rag/questions'
import {
  checkRedisSettings,
  checkSentinels,
  createProducer,
  createQuestionEventSubscriber,
  createRevocationChannel,
} from '@rag/queue'
import { announceReady, createShutdown, runMain } from '@rag/runtime'
import { oidcSignIn } from '@rag/sign-in'
import { credentialKeys } from '@rag/sources'

runMain(async () => {
  const config = gatewayConfig.parse(processEnvironment())
  const logger = createLogger({ name: 'gateway', ...config.log })
  const shutdown = createShutdown({ logger })
  shutdown.installSignalHandlers()

  const pool = await openDatabase({ ...config, logger })
  shutdown.add('database pool', () => pool.end())
  // Searches on a read replica when there is one; everything else on the primary.
  const reads = config.readReplica.url
    ? openReadReplica({
        primary: pool,
        url: config.readReplica.url,
        schema: config.database.schema,
        maxLagSeconds: config.readReplica.maxLagSeconds,
        logger,
      })
    : undefined
  if (reads) shutdown.add('read replica', () => reads.close())
  const producer = await createProducer({ url: config.redis.url, prefix: config.redis.prefix })
  shutdown.add('queues', () => producer.close())
  // BullMQ's own requirements of Redis, said at start (a warning: the platform still runs).
  for (const problem of await checkRedisSettings(producer.redis))
    logger.warn({ setting: problem.setting, value: problem.value }, problem.message)
  for (const problem of await checkSentinels(config.redis.url))
    logger.warn({ sentinels: problem.views }, problem.message)

  // Documents whose jobs Redis lost (flushed, restarted without persistence) are started again.
  const reconcile = () =>
    reconcileDocuments({ pool, producer, logger }, { staleAfterMs: config.storage.reconcileAfterMs }).catch(
      (error: unknown) => logger.warn({ err: error }, 'reconciling documents failed'),
    )
  const reconciler = setInterval(reconcile, config.storage.reconcileAfterMs)
  shutdown.add('reconciler', () => clearInterval(reconciler))
  void reconcile()

  // Questions whose next job Redis lost (or never got: Redis was down when they were asked).
  const reconcileAsked = () =>
    reconcileQuestions(
      { pool, producer, logger },
      { staleAfterMs: config.retrieval.questionReconcileMs },
    ).catch((error: unknown) => logger.warn({ err: error }, 'reconciling questions failed'))
  const questionReconciler = setInterval(reconcileAsked, config.retrieval.questionReconcileMs)
  shutdown.add('question reconciler', () => clearInterval(questionReconciler))

  // Questions: answers past their retention are deleted; questions stuck in a stage are failed.
  const tidyQuestions = () =>
    Promise.all([
      deleteExpiredQuestions(pool),
      failStalledQuestions(pool, config.retrieval.questionTimeoutSeconds, undefined, (question, limit) =>
        waitsItsTurn({ pool, producer }, question, limit),
      ),
    ]).catch((error: unknown) => logger.warn({ err: error }, 'tidying questions failed'))
  const questionTidier = setInterval(tidyQuestions, 30_000)
  shutdown.add('question tidier', () => clearInterval(questionTidier))
  // The audit log keeps AUDIT_RETENTION_DAYS: older entries are dropped at start and hourly.
  const pruneAuditLog = () =>
    Promise.all([
      pruneAudit(pool, config.gateway.auditRetentionDays),
      pruneUserSessions(pool, config.gateway.auditRetentionDays),
      pruneKeySessions(pool, config.gateway.auditRetentionDays),
    ]).catch((error: unknown) => logger.warn({ err: error }, 'pruning the audit log failed'))
  const auditPruner = setInterval(pruneAuditLog, 3_600_000)
  shutdown.add('audit log pruner', () => clearInterval(auditPruner))
  void pruneAuditLog()
  const questionEvents = await createQuestionEventSubscriber(config.redis.url, config.redis.prefix)
  shutdown.add('question events', () => questionEvents.close())
  // A key revoked (a person signed out) on any replica ends its open streams on this one too.
  const revocationChannel = await createRevocationChannel(config.redis.url, config.redis.prefix)
  shutdown.add('revocations', () => revocationChannel.close())
  const oidc = config.signIn.oidc
  if (oidc) logger.info({ issuer: oidc.issuer, claim: oidc.claim }, 'single sign-on through OpenID Connect')

  // Without an API key nothing but this machine may reach the gateway; a short key is warned of.
  const { host, warnings, notes } = listeningHost(config.gateway.apiKeys, config.gateway.host)
  for (const warning of warnings) logger.warn({ requested: config.gateway.host }, warning)
  for (const note of notes) logger.info(note)
  // The query embedder for /search: loading from the start, in the background; a search never
  // waits for it (or for a download that cannot happen offline) — until it is there, search is by
  // keyword and says so. Never a crash when unavailable.
  const embedder = embedderProvider(config.models, logger)
  embedder.ready()
  const app = createApp({
    pool,
    producer,
    logger,
    getEmbedder: async () => embedder.ready(),
    retrieval: config.retrieval,
    models: config.models,
    evaluation: { generation: config.generation, chunking: config.chunking, models: config.models },
    sourceCredentialKeys: credentialKeys(config.sources),
    sourcePrivateHosts: config.sources.allowPrivate,
    questionEvents,
    revocationChannel,
    ...(reads ? { reads } : {}),
    ...(oidc ? { singleSignOn: { oidc: oidcSignIn(oidc), sessionHours: oidc.sessionHours } } : {}),
    access: config.gateway,
    queuePrefix: config.redis.prefix,
    // The web app `pnpm start` builds beside this one, unless WEB_APP_DIR names another.
    webAppDir: config.gateway.webAppDir || fileURLToPath(new URL('../../web/dist', import.meta.url)),
    uploads: {
      uploadDir: config.storage.uploadDir,
      maxBytes: config.storage.maxUploadBytes,
      maxFiles: config.storage.maxUploadFiles,
      webPages: config.storage.webPages,
    },
  })
  const server = serve({ fetch: app.fetch, hostname: host, port: config.gateway.port }, (info) => {
    logger.info({ url: `http://${host}:${info.port}` }, 'gateway listening')
    announceReady()
  })
  shutdown.add('http server', () => new Promise<void>((resolve) => server.close(() => resolve())))
})
