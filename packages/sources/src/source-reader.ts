import type { SourceKind } from '@rag/api-contract'
import type { OutboundPolicy } from './network/outbound-policy.ts'
import type { ReadLimits, SourceReader } from './source-listing.ts'

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

/**
 * The reader of a source of `kind`, from its (validated) settings and opened credentials. Each
 * kind's client library is imported when a source of that kind is read (the S3 SDK and the WebDAV
 * client cost ~0.3 s of CPU each in every process importing this package, the gateway among them).
 */
export async function sourceReader(
  kind: SourceKind,
  settings: Record<string, unknown>,
  credentials: Record<string, string>,
  limits: ReaderLimits,
): Promise<SourceReader> {
  switch (kind) {
    case 'webdav': {
      const { webdavSource } = await import('./webdav-source.ts')
      return webdavSource(settings as { url: string }, credentials, limits)
    }
    case 's3': {
      const { s3Source } = await import('./s3-source.ts')
      return s3Source(settings as { bucket: string }, credentials, limits)
    }
    case 'web': {
      const { webSiteSource } = await import('./web/web-site-source.ts')
      return webSiteSource(settings as { url: string }, {
        ...limits,
        maxRedirects: WEB_MAX_REDIRECTS,
        authorization: authorizationOf(credentials),
      })
    }
    case 'git': {
      const { gitSource } = await import('./git-source.ts')
      return gitSource(settings as { url: string }, credentials, {
        ...limits,
        cacheDir: limits.gitCacheDir,
      })
    }
  }
}

/** The header a site's credentials make: Bearer for a token, Basic for a user and password. */
function authorizationOf(credentials: Record<string, string>): string | undefined {
  if (credentials.token) return `Bearer ${credentials.token}`
  if (credentials.username)
    return `Basic ${Buffer.from(`${credentials.username}:${credentials.password ?? ''}`).toString('base64')}`
  return undefined
}
