import { defineFragment } from '../define-config.ts'
import { integer, list, optionalText, text } from '../env-values.ts'

export interface SourcesSection {
  /** Seals and opens sources' credentials; unset: a source with credentials is refused. */
  secret: string | undefined
  /** Secrets rotated out, still opening what they sealed until re-sealed. */
  previousSecrets: string[]
  maxItems: number
  requestTimeoutMs: number
  fetchTimeoutMs: number
  /** Where Git sources keep their fetched repositories. */
  gitCacheDir: string
  /** How often due scheduled syncs are looked for. */
  scheduleCheckMs: number
  /** Private hosts, addresses and CIDR ranges sources may reach (only an admin adds a source there). */
  allowPrivate: string[]
}

export const sources = defineFragment({
  shape: {
    // Key for sources' credentials at rest (tokens, passwords, keys; AES-256-GCM): any long random
    // string (e.g. `openssl rand -base64 32`). Without it a source with credentials is refused.
    SOURCES_SECRET: optionalText().refine((value) => value === undefined || value.length >= 16, {
      message: 'must be at least 16 characters',
    }),
    // Secrets rotated out, comma-separated: what they sealed still opens, and the watcher re-seals it
    // under SOURCES_SECRET at start.
    SOURCES_SECRET_PREVIOUS: list(),
    // Files (objects, pages) one source may list; a listing past it is refused, nothing deleted.
    SOURCE_MAX_ITEMS: integer(100_000, { min: 1, max: 10_000_000 }),
    // One request to a source's server (a listing page, a file).
    SOURCE_REQUEST_TIMEOUT_SECONDS: integer(60, { min: 1, max: 3600 }),
    // A Git source's whole fetch.
    SOURCE_FETCH_TIMEOUT_SECONDS: integer(900, { min: 1, max: 86400 }),
    // Where Git sources keep their fetched repositories. Default: DATA_DIR/sources.
    SOURCE_CACHE_DIR: text(''),
    // Private hosts sources may reach, comma-separated: names (nas.corp), addresses (10.0.0.5) or
    // CIDR ranges (10.1.0.0/16). Every other private, loopback, link-local or metadata address is
    // refused when a sync connects, whatever name leads there. Only an admin adds a source on one.
    SOURCES_ALLOW_PRIVATE: list(),
  },
  read: (env): SourcesSection => ({
    secret: env.SOURCES_SECRET,
    previousSecrets: env.SOURCES_SECRET_PREVIOUS,
    maxItems: env.SOURCE_MAX_ITEMS,
    requestTimeoutMs: env.SOURCE_REQUEST_TIMEOUT_SECONDS * 1000,
    fetchTimeoutMs: env.SOURCE_FETCH_TIMEOUT_SECONDS * 1000,
    gitCacheDir: env.SOURCE_CACHE_DIR,
    scheduleCheckMs: 30_000,
    allowPrivate: env.SOURCES_ALLOW_PRIVATE,
  }),
})
