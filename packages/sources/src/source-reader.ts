import type { SourceKind } from '@rag/api-contract'
import { gitSource } from './git-source.ts'
import { s3Source } from './s3-source.ts'
import type { ReadLimits, SourceReader } from './source-listing.ts'
import { webdavSource } from './webdav-source.ts'

export interface ReaderLimits extends ReadLimits {
  /** Where Git sources keep their fetched repositories. */
  gitCacheDir: string
  /** A whole fetch of a repository. */
  fetchTimeoutMs: number
  /** The process's environment (processEnvironment()): git runs with its PATH and HOME. */
  env: NodeJS.ProcessEnv
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
    case 'git':
      return gitSource(settings as { url: string }, credentials, {
        ...limits,
        cacheDir: limits.gitCacheDir,
      })
  }
}
