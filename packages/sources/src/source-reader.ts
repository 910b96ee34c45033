import type { SourceKind } from '@rag/api-contract'
import { gitSource } from './git-source.ts'
import type { OutboundPolicy } from './network/outbound-policy.ts'
import { s3Source } from './s3-source.ts'
import type { ReadLimits, SourceReader } from './source-listing.ts'
import { webSiteSource } from './web/web-site-source.ts'
import { webdavSource } from './webdav-source.ts'

/** Redirects a web site's page may take (each checked, each on the site). */
const WEB_MAX_REDIRECTS = 5

export interface ReaderLimits extends ReadLimits {
  /** Where Git sources keep their fetched repositories. */
  gitCacheDir: string
  /** A whole fetch of a repository. */
  fetchTimeoutMs: number
  /** The process's environment (processEnvironment()): git runs with its PATH and HOME. */
  env: NodeJS.ProcessEnv
  /** Where every kind's connections may go (SOURCES_ALLOW_PRIVATE). */
  policy: OutboundPolicy
}

/** The reader of a source of `kind`, from its (validated) settings and opened credentials. */
export function sourceReader(
  kind: SourceKind,
  settings: Record<string, unknown>,
  credentials: Record<string, string>,
  limits: ReaderLimits,
): SourceReader {
  switch (kind) {
    case 'webdav':
      return webdavSource(settings as { url: string }, credentials, limits)
    case 's3':
      return s3Source(settings as { bucket: string }, credentials, limits)
    case 'web':
      return webSiteSource(settings as { url: string }, {
        ...limits,
        maxRedirects: WEB_MAX_REDIRECTS,
        authorization: authorizationOf(credentials),
      })
    case 'git':
      return gitSource(settings as { url: string }, credentials, {
        ...limits,
        cacheDir: limits.gitCacheDir,
      })
  }
}

/** The header a site's credentials make: Bearer for a token, Basic for a user and password. */
function authorizationOf(credentials: Record<string, string>): string | undefined {
  if (credentials.token) return `Bearer ${credentials.token}`
  if (credentials.username)
    return `Basic ${Buffer.from(`${credentials.username}:${credentials.password ?? ''}`).toString('base64')}`
  return undefined
}
