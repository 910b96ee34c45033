import { writeFile } from 'node:fs/promises'
import type { Logger } from '@rag/log'

/**
 * A container's liveness signal for a process without an HTTP port (a worker, the watcher): every
 * `everyMs` the file gets the current time, but only while `isAlive` says the process works (its
 * worker consumes, Redis answers). A health check (scripts/healthcheck.mjs) calls the process dead
 * when the file grows old.
 */
export function startLivenessFile({
  path,
  isAlive,
  logger,
  everyMs = 10_000,
}: {
  path: string
  /** Resolves true while the process does its work; a rejection counts as not alive. */
  isAlive: () => Promise<boolean>
  logger: Logger
  everyMs?: number
}): () => void {
  let warned = false
  const beat = async () => {
    try {
      if (!(await isAlive())) return
      await writeFile(path, `${new Date().toISOString()}\n`)
      warned = false
    } catch (error) {
      if (!warned) logger.warn({ err: error, path }, 'liveness not written')
      warned = true
    }
  }
  void beat()
  const timer = setInterval(beat, everyMs)
  return () => clearInterval(timer)
}
