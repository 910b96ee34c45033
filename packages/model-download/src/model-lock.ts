import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import lockfile from 'proper-lockfile'

/**
 * Runs work holding a lock on `path` (a `<path>.lock` directory) shared by every process on this
 * machine: the embed worker, the retrieve worker and the gateway starting at once download a
 * model once; the others wait, then find the files there. The lock is refreshed while held and
 * taken over when its holder died (stale after 30 s).
 */
export async function withModelLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  await mkdir(dirname(path), { recursive: true })
  const release = await lockfile.lock(path, {
    realpath: false,
    stale: 30_000,
    update: 5_000,
    // Waiting for another process's download: up to about an hour, checking twice a second.
    retries: { retries: 7200, factor: 1, minTimeout: 500, maxTimeout: 500 },
  })
  try {
    return await work()
  } finally {
    await release()
  }
}
