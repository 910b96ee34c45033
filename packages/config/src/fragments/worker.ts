import { defineFragment } from '../define-config.ts'
import { integer, text } from '../env-values.ts'

export const worker = defineFragment({
  shape: {
    // Jobs one worker process runs at once. Stages mostly wait on Postgres, so several overlap well
    // (pnpm bench ingest: 1.17x of in-process time at 1, 1.04x at 4).
    WORKER_CONCURRENCY: integer(4, { min: 1, max: 64 }),
    // Seconds a worker may take to finish its current job on SIGTERM before it is released.
    SHUTDOWN_TIMEOUT_SECONDS: integer(20, { min: 1, max: 600 }),
    // A job whose worker died is handed to another worker after this long without a heartbeat.
    JOB_LOCK_SECONDS: integer(30, { min: 1, max: 3600 }),
    // Port of the worker's Prometheus endpoint (GET /metrics: job durations and failures, model
    // calls, the process); 0 = none. Each worker on one host needs its own: `pnpm start` gives its
    // workers this port and the next ones, one each, in the process catalog's order.
    METRICS_PORT: integer(0, { min: 0, max: 65535 }),
    // The interface the worker's metrics endpoint listens on. It has no key, so loopback by default;
    // 0.0.0.0 for a Prometheus on another host, on a network you trust.
    METRICS_HOST: text('127.0.0.1'),
    // The ingestion workers' scheduling priority (Unix nice, inherited by the parse sandbox and
    // OCR): above 0 they run behind the question workers, so an answer being written has the CPU
    // first and ingestion takes what it leaves; 0 = the same priority as everything else.
    INGEST_NICENESS: integer(10, { min: 0, max: 19 }),
  },
  read: (env) => ({
    concurrency: env.WORKER_CONCURRENCY,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    lockDurationMs: env.JOB_LOCK_SECONDS * 1000,
    metricsPort: env.METRICS_PORT,
    metricsHost: env.METRICS_HOST,
    ingestNiceness: env.INGEST_NICENESS,
  }),
})
