import { OpenAPIHono } from '@hono/zod-openapi'
import {
  keySessionOf,
  principalOfKey,
  principalOfKeyHash,
  principalOfSession,
  SESSION_PREFIX,
} from '@rag/access'
import { chunkingDefaults, generationDefaults, modelsDefaults } from '@rag/config'
import type { Pool } from '@rag/db'
import type { LiveEvaluationDeps } from '@rag/evaluation'
import type { Logger } from '@rag/log'
import { createPlatformMetrics, type PlatformMetrics } from '@rag/metrics'
import type { Producer, RevocationChannel } from '@rag/queue'
import type { CredentialKeys } from '@rag/sources'
import type { Context } from 'hono'
import { cors } from 'hono/cors'
import { methodNotAllowed } from 'hono/method-not-allowed'
import { keyResolver, requireApiKey } from './access/api-key.ts'
import { auditTrail } from './access/audit-trail.ts'
import { KeyAttempts } from './access/key-attempts.ts'
import { keyRoutes } from './access/keys-routes.ts'
import { PLAIN_ROUTES } from './access/plain-routes.ts'
import { Revocations } from './access/revocations.ts'
import { routeMatcher } from './access/route-matcher.ts'
import { needsRole, routePolicies } from './access/route-policy.ts'
import { sessionRoutes } from './access/session-routes.ts'
import { type SingleSignOn, singleSignOnRoutes } from './access/single-sign-on.ts'
import { streamTickets } from './access/stream-tickets.ts'
import { userSessionRoutes } from './access/user-sessions-routes.ts'
import { errorHandler } from './error-handler.ts'
import { HttpError } from './http-error.ts'
import { clientAddress } from './middleware/client-address.ts'
import { rejectCrossOrigin } from './middleware/cross-origin.ts'
import { inputGuard } from './middleware/input-guard.ts'
import { publicOrigin } from './middleware/public-origin.ts'
import { rateLimit, sharedRateLimiter } from './middleware/rate-limit.ts'
import { requestContext } from './middleware/request-context.ts'
import { mountApiDocs } from './routes/api-docs.ts'
import { type AskRouteDeps, askRoutes } from './routes/ask.ts'
import { collectionCalibrationRoutes } from './routes/collection-calibration.ts'
import { collectionSynonymRoutes } from './routes/collection-synonyms.ts'
import { collectionRoutes } from './routes/collections.ts'
import { conversationRoutes } from './routes/conversations.ts'
import { documentChunkRoutes } from './routes/document-chunks.ts'
import { type DocumentRoutesOptions, documentRoutes } from './routes/documents.ts'
import { evaluationCaseRoutes } from './routes/evaluation-cases.ts'
import { evaluationRunRoutes } from './routes/evaluation-runs.ts'
import { feedbackRoutes } from './routes/feedback.ts'
import { healthRoutes } from './routes/health.ts'
import { mountMcp } from './routes/mcp.ts'
import { httpMetrics, mountMetrics } from './routes/metrics.ts'
import { mountNoOAuth } from './routes/no-oauth.ts'
import { openAiRoutes } from './routes/openai/chat-completions.ts'
import { mountQueueDashboard } from './routes/queue-dashboard.ts'
import { type SearchRouteDeps, searchRoutes } from './routes/search.ts'
import { sourceRoutes } from './routes/sources.ts'
import { mountWebApp } from './routes/web-app.ts'

export interface GatewayDeps extends SearchRouteDeps, AskRouteDeps {
  pool: Pool
  producer: Producer
  logger: Logger
  uploads: DocumentRoutesOptions
  queuePrefix: string
  /** Who may call: API keys (none = everyone, loopback only), browser origins, rate limits. */
  access?: AccessOptions
  /** The built web app (apps/web/dist) served at `/`; absent: `/` says how to build it. */
  webAppDir?: string
  /** Prometheus metrics, served at /metrics (a registry of its own per gateway by default). */
  metrics?: PlatformMetrics
  /** People signing in through an OpenID Connect provider (OIDC_ISSUER); absent: keys only. */
  singleSignOn?: SingleSignOn
  /** Revocations told to every replica (Redis); absent: this replica's streams only, and the recheck. */
  revocationChannel?: RevocationChannel
  /** The settings an evaluation run from the web app reports (the workers'); absent: the defaults. */
  evaluation?: Pick<LiveEvaluationDeps, 'generation' | 'chunking' | 'models'>
  /** SOURCES_SECRET (and those rotated out): seals a source's credentials; absent: none stored. */
  sourceCredentialKeys?: CredentialKeys | null
  /** SOURCES_ALLOW_PRIVATE: private hosts sources may reach; a source on one is an admin's to add. */
  sourcePrivateHosts?: readonly string[]
}

const EVALUATION_DEFAULTS = {
  generation: generationDefaults(),
  chunking: chunkingDefaults(),
  models: modelsDefaults(),
}

export interface AccessOptions {
  apiKeys: string[]
  corsOrigins: string[]
  askPerMinute: number
  uploadsPerMinute: number
  /** Proxies whose X-Forwarded-For is believed (see clientAddress). */
  trustedProxies?: string[]
}

const OPEN_ACCESS: AccessOptions = { apiKeys: [], corsOrigins: [], askPerMinute: 0, uploadsPerMinute: 0 }
/** Wrong API keys a minute per client address, on any route and the sign-in together. */
const KEY_ATTEMPTS_PER_MINUTE = 10

export function createApp(deps: GatewayDeps) {
  const app = new OpenAPIHono()
  const access = deps.access ?? OPEN_ACCESS
  const metrics = deps.metrics ?? createPlatformMetrics('gateway')
  app.use(requestContext({ logger: deps.logger }))
  app.use(httpMetrics(metrics))
  app.use(inputGuard())
  if (access.corsOrigins.length > 0) {
    // Before the key check: a browser's preflight carries no key. The headers a listed origin asks
    // to send are allowed as asked (no allowHeaders: hono echoes the request's): clients add their
    // own (the openai SDK's x-stainless-*, MCP's mcp-protocol-version and mcp-session-id, a resuming
    // event stream's last-event-id), and the origin, not the header, is what is trusted.
    app.use(
      cors({
        origin: access.corsOrigins,
        exposeHeaders: ['x-request-id', 'location', 'retry-after', 'mcp-session-id', 'www-authenticate'],
      }),
    )
  }
  const addressOf = (c: Context) => clientAddress(c, access.trustedProxies ?? [])
  // Reached over TLS (itself, or through a trusted proxy): the key cookie is then `__Host-`.
  const isSecure = (c: Context) => publicOrigin(c, access.trustedProxies ?? []).startsWith('https:')
  const attempts = new KeyAttempts(KEY_ATTEMPTS_PER_MINUTE)
  // A known path asked with another method → 405 with the methods it takes (hono's middleware
  // reads the router's table once every route is mounted), in our error's shape.
  const onError = errorHandler({ logger: deps.logger })
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) => {
        const allowed = [...methods].sort().join(', ')
        c.header('Allow', allowed)
        return onError(
          new HttpError(405, `${c.req.method} is not allowed on ${c.req.path}; use ${allowed}`),
          c,
        )
      },
    }),
  )
  app.use(rejectCrossOrigin({ allowedOrigins: access.corsOrigins }))
  const resolveKey = keyResolver(
    access.apiKeys,
    (key) =>
      key.startsWith(SESSION_PREFIX) ? principalOfSession(deps.pool, key) : principalOfKey(deps.pool, key),
    {
      keySessionOf: (token) => keySessionOf(deps.pool, token),
      principalOfKeyHash: (hash) => principalOfKeyHash(deps.pool, hash),
    },
  )
  const revocations = new Revocations(resolveKey, deps.revocationChannel)
  // A browser's EventSource cannot send a key: a ticket in its URL opens one question's events.
  const tickets = streamTickets(deps.producer.redis, deps.queuePrefix)
  // Requests anyone may make even when API keys are set: the routes defined open (health, the
  // sign-ins that set the key or session cookie) and the plain paths listed open (the API
  // description, the web page shell: its data comes from the API behind the key).
  const isOpenRequest = routeMatcher(
    [...routePolicies(), ...PLAIN_ROUTES].filter((route) => route.role === 'open'),
  )
  app.use(
    requireApiKey({
      keys: access.apiKeys,
      resolve: resolveKey,
      open: (path, method) => isOpenRequest(method, path),
      attempts,
      addressOf,
      isSecure,
      tickets,
    }),
  )
  app.use(auditTrail({ pool: deps.pool, logger: deps.logger, addressOf }))
  // Counted in Redis under the installation's prefix: every gateway replica shares the limits.
  const limit = (perMinute: number, what: string) =>
    rateLimit({
      perMinute,
      what,
      addressOf,
      limiter: sharedRateLimiter({
        perMinute,
        redis: deps.producer.redis,
        keyPrefix: `${deps.queuePrefix}:rate:${what}`,
      }),
    })
  // Each route names the limit it counts against (defineRoute); the limiters are this gateway's.
  const routeLimits = {
    questions: limit(access.askPerMinute, 'questions'),
    uploads: limit(access.uploadsPerMinute, 'uploads'),
  }
  app.use(async (c, next) => {
    c.set('routeLimits', routeLimits)
    return next()
  })
  app.route('/', healthRoutes(deps))
  app.route('/', documentRoutes(deps, deps.uploads))
  app.route('/', documentChunkRoutes(deps))
  app.route('/', searchRoutes({ ...deps, metrics }))
  app.route('/', askRoutes({ ...deps, revocations, tickets }))
  app.route('/', conversationRoutes(deps))
  app.route('/', openAiRoutes({ ...deps, revocations }))
  app.route('/', keyRoutes({ ...deps, revocations }))
  app.route('/', collectionRoutes(deps))
  app.route('/', collectionSynonymRoutes(deps))
  app.route('/', collectionCalibrationRoutes(deps))
  app.route('/', feedbackRoutes(deps))
  app.route('/', evaluationCaseRoutes(deps))
  // Cases are asked with the options a person's question gets here (this gateway's models); the
  // settings reported are the workers'.
  const evaluation = deps.evaluation ?? EVALUATION_DEFAULTS
  app.route(
    '/',
    evaluationRunRoutes({ ...deps, ...evaluation, models: { ...evaluation.models, ...deps.models } }),
  )
  app.route(
    '/',
    sourceRoutes({
      ...deps,
      credentialKeys: deps.sourceCredentialKeys ?? null,
      privateHosts: deps.sourcePrivateHosts ?? [],
    }),
  )
  app.route('/', userSessionRoutes({ ...deps, revocations }))
  // Sign-in is open (it checks the key itself); its wrong keys count with every other route's.
  app.route(
    '/',
    sessionRoutes(access.apiKeys, {
      attempts,
      addressOf,
      isSecure,
      resolve: resolveKey,
      pool: deps.pool,
      singleSignOn: deps.singleSignOn,
      revocations,
    }),
  )
  app.route(
    '/',
    singleSignOnRoutes({ ...deps, trustedProxies: access.trustedProxies ?? [], addressOf, isSecure }),
  )
  mountApiDocs(app, access.trustedProxies ?? [])
  mountNoOAuth(app)
  // The plain paths' roles, from their table, checked before whatever serves them.
  for (const { path, role } of PLAIN_ROUTES)
    if (role !== 'open')
      app.use(
        path,
        needsRole(role, (c) => `${c.req.method} ${c.req.path}`),
      )
  mountMcp(app, revocations)
  mountMetrics(app, metrics, deps)
  mountQueueDashboard(app, deps.producer)
  mountWebApp(app, deps.webAppDir)
  app.notFound((c) => onError(new HttpError(404, `no route for ${c.req.method} ${c.req.path}`), c))
  app.onError(onError)
  return app
}
