import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'

/** Every metric the platform exports, by name: the one place they are defined (the dashboard test reads it). */
export const METRIC_NAMES = {
  httpDuration: 'rag_http_request_duration_seconds',
  searchDuration: 'rag_search_duration_seconds',
  jobDuration: 'rag_job_duration_seconds',
  jobFailures: 'rag_job_failures_total',
  queueJobs: 'rag_queue_jobs',
  queueWorkers: 'rag_queue_workers',
  queueOldestWaiting: 'rag_queue_oldest_waiting_seconds',
  modelUp: 'rag_model_up',
  inferenceDuration: 'rag_model_inference_seconds',
  generatedTokens: 'rag_llm_tokens_total',
} as const

// Latencies from a few milliseconds (keyword search) to minutes (a CPU answer).
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 180]

/** The metrics of one process (`process` becomes a label on every series), in a registry of its own. */
export function createPlatformMetrics(process: string) {
  const registry = new Registry()
  registry.setDefaultLabels({ process })
  // Node's own (rag_process_*, rag_nodejs_*): memory, CPU, event-loop lag.
  collectDefaultMetrics({ register: registry, prefix: 'rag_' })
  const registers = [registry]
  dropGaugesEndingInTotal(registry)
  return {
    registry,
    httpDuration: new Histogram({
      name: METRIC_NAMES.httpDuration,
      help: 'HTTP requests by route (the declared path, e.g. /ask/{id}), method and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: SECONDS,
      registers,
    }),
    searchDuration: new Histogram({
      name: METRIC_NAMES.searchDuration,
      help: 'Search latency by mode (keyword, vector, hybrid)',
      labelNames: ['mode'] as const,
      buckets: SECONDS,
      registers,
    }),
    jobDuration: new Histogram({
      name: METRIC_NAMES.jobDuration,
      help: 'Job run time per queue (stage) and outcome (completed, failed)',
      labelNames: ['queue', 'outcome'] as const,
      buckets: SECONDS,
      registers,
    }),
    jobFailures: new Counter({
      name: METRIC_NAMES.jobFailures,
      help: 'Failed job attempts per queue; final: true when it will not be tried again',
      labelNames: ['queue', 'final'] as const,
      registers,
    }),
    inferenceDuration: new Histogram({
      name: METRIC_NAMES.inferenceDuration,
      help: 'Time inside a model call (embed passages/query, rerank score, LLM generate) by component, model and call',
      labelNames: ['component', 'model', 'call'] as const,
      buckets: SECONDS,
      registers,
    }),
    generatedTokens: new Counter({
      name: METRIC_NAMES.generatedTokens,
      help: 'Tokens the LLM read (prompt) and wrote (completion); their rate over inference time is tokens/s',
      labelNames: ['model', 'kind'] as const,
      registers,
    }),
    /** Filled on each scrape by `collect` (queue counts, model states). */
    gauge: (
      name: 'queueJobs' | 'queueWorkers' | 'queueOldestWaiting' | 'modelUp',
      collect: (gauge: Gauge) => Promise<void>,
    ) =>
      new Gauge({
        name: METRIC_NAMES[name],
        help: GAUGE_HELP[name],
        labelNames: GAUGE_LABELS[name],
        registers,
        async collect() {
          await collect(this)
        },
      }),
  }
}
export type PlatformMetrics = ReturnType<typeof createPlatformMetrics>

const GAUGE_HELP = {
  queueJobs: 'Jobs per queue and state (waiting, active, delayed, failed)',
  queueWorkers: 'Worker connections attached to each queue',
  queueOldestWaiting: 'Age of the oldest waiting job per queue',
  modelUp: '1 when the component’s model is loaded, 0 when unavailable or loading (state label)',
}
const GAUGE_LABELS = {
  queueJobs: ['queue', 'state'],
  queueWorkers: ['queue'],
  queueOldestWaiting: ['queue'],
  modelUp: ['component', 'model', 'state'],
}

/**
 * prom-client exports three of Node's gauges twice: by type, and summed as `…_total`, a suffix
 * Prometheus keeps for counters (promtool warns; `rate()` over them is nonsense). The sums go;
 * `sum(rag_nodejs_active_handles)` gives them from the by-type series.
 */
function dropGaugesEndingInTotal(registry: Registry) {
  for (const name of ['handles', 'requests', 'resources'])
    registry.removeSingleMetric(`rag_nodejs_active_${name}_total`)
}
