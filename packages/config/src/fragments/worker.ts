import { defineFragment } from '../define-config.ts'
import { integer } from '../env-values.ts'

export const worker = defineFragment({
  shape: {
    // Jobs one worker process runs at once; CPU-bound model stages want 1 per core.
    WORKER_CONCURRENCY: integer(1, { min: 1, max: 64 }),
    // Seconds a worker may take to finish its current job on SIGTERM before it is released.
    SHUTDOWN_TIMEOUT_SECONDS: integer(20, { min: 1, max: 600 }),
  },
  read: (env) => ({
    concurrency: env.WORKER_CONCURRENCY,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_SECONDS * 1000,
  }),
})
