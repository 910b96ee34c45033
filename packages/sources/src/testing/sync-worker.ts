import { join } from 'node:path'
import { processEnvironment } from '@rag/config'
import type { IngestDeps } from '@rag/ingest'
import { type SyncWorkerOptions, startSourceSyncWorker } from '../source-sync-worker.ts'

/** The test servers (Apache, s3rver, git's http-backend, sshd) listen on loopback. */
export const LOOPBACK = ['127.0.0.1', '::1', 'localhost']

/**
 * The watcher's `source.sync` worker in a test's process, over the test's ingestion fixture:
 * credentials opened with `secret`, uploads and Git repositories under `dir`; its sources may
 * reach `allowPrivate` (SOURCES_ALLOW_PRIVATE: loopback, where the test servers are, by default)
 * and resolve names by `network` when given.
 */
export function startTestSyncWorker(
  deps: IngestDeps & { redisUrl: string; prefix: string },
  {
    dir,
    secret,
    allowPrivate = LOOPBACK,
    network,
  }: {
    dir: string
    secret: string
    allowPrivate?: string[]
    network?: SyncWorkerOptions['network']
  },
) {
  return startSourceSyncWorker(deps, {
    uploadDir: join(dir, 'uploads'),
    maxBytes: 1_000_000,
    dataDir: dir,
    env: processEnvironment(),
    redisUrl: deps.redisUrl,
    prefix: deps.prefix,
    sources: {
      secret,
      previousSecrets: [],
      maxItems: 1000,
      requestTimeoutMs: 20_000,
      fetchTimeoutMs: 60_000,
      gitCacheDir: join(dir, 'git'),
      scheduleCheckMs: 30_000,
      allowPrivate,
    },
    ...(network ? { network } : {}),
  })
}
