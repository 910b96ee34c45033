import { join } from 'node:path'
import { processEnvironment } from '@rag/config'
import type { IngestDeps } from '@rag/ingest'
import { startSourceSyncWorker } from '../source-sync-worker.ts'

/**
 * The watcher's `source.sync` worker in a test's process, over the test's ingestion fixture:
 * credentials opened with `secret`, uploads and Git repositories under `dir`.
 */
export function startTestSyncWorker(
  deps: IngestDeps & { redisUrl: string; prefix: string },
  { dir, secret }: { dir: string; secret: string },
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
    },
  })
}
