import { defineFragment } from '../define-config.ts'
import { integer, list, optionalInteger, optionalText, text } from '../env-values.ts'

export interface GatewaySection {
  host: string
  port: number
  apiKeys: string[]
  corsOrigins: string[]
  askPerMinute: number
  uploadsPerMinute: number
  /** Addresses of reverse proxies whose X-Forwarded-For names the client. */
  trustedProxies: string[]
  webAppDir: string
  /** Audit log entries older than this many days are dropped. */
  auditRetentionDays: number
}

export const gateway = defineFragment({
  shape: {
    // Interface to listen on; without API_KEY the gateway stays on loopback whatever this says.
    GATEWAY_HOST: text('127.0.0.1'),
    // 0 picks a free port (tests). Unset: PORT when set (what hosting platforms set), else 3000.
    GATEWAY_PORT: optionalInteger({ min: 0, max: 65535 }),
    PORT: optionalInteger({ min: 0, max: 65535 }),
    // One key or a comma-separated list; when set, every route but health and sign-in needs a key.
    // The first is the bootstrap admin (everything, keys included), the others editors of every
    // collection; keys with a role and collections are made with `rag keys create`.
    API_KEY: optionalText(),
    // Origins allowed to call the API from a browser (comma-separated).
    CORS_ORIGINS: list(),
    // Questions (POST /ask) and uploads (POST /documents) a minute per API key (or address); 0 = no limit.
    ASK_RATE_PER_MINUTE: integer(120, { min: 0, max: 1_000_000 }),
    UPLOAD_RATE_PER_MINUTE: integer(60, { min: 0, max: 1_000_000 }),
    // Reverse proxies in front of the gateway (their addresses, comma-separated): only from them is
    // X-Forwarded-For believed when limits and sign-in attempts are counted per client address.
    TRUSTED_PROXIES: list(),
    // The built web app served at / (empty: the one `pnpm start` builds beside the gateway, apps/web/dist).
    WEB_APP_DIR: text(''),
    // How long the audit log (GET /audit: uploads, deletions, re-indexing, questions, sign-ins,
    // keys made and revoked) keeps an entry.
    AUDIT_RETENTION_DAYS: integer(90, { min: 1, max: 36500 }),
  },
  read: (env): GatewaySection => ({
    host: env.GATEWAY_HOST,
    port: env.GATEWAY_PORT ?? env.PORT ?? 3000,
    apiKeys: (env.API_KEY ?? '')
      .split(',')
      .map((key) => key.trim())
      .filter(Boolean),
    corsOrigins: env.CORS_ORIGINS,
    askPerMinute: env.ASK_RATE_PER_MINUTE,
    uploadsPerMinute: env.UPLOAD_RATE_PER_MINUTE,
    trustedProxies: env.TRUSTED_PROXIES,
    webAppDir: env.WEB_APP_DIR,
    auditRetentionDays: env.AUDIT_RETENTION_DAYS,
  }),
})
