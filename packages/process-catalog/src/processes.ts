import { gatewayConfig, watcherConfig, workerConfigs } from '@rag/config'
import { ingestionJobs, questionJobs, sourceSyncJob } from '@rag/queue'

/** Every worker process is the one worker app, started with the worker's name as its argument. */
export const WORKER_ENTRY = 'apps/worker/src/main.ts'

/**
 * Every process `pnpm start` runs (and docker compose runs as a service each), the one list of
 * them: its config schema, for a worker the pipeline step it runs (one queue each), and its entry
 * file, relative to the repository's root (a worker's: the worker app, given the worker's name). The supervisor starts them from here, the worker host
 * finds a worker's step and config here, the compose file and the bench are checked against it.
 */
export const PROCESSES = {
  gateway: { config: gatewayConfig, entry: 'apps/gateway/src/main.ts' },
  'worker-parse': {
    config: workerConfigs['worker-parse'],
    pipeline: 'ingestion',
    step: 'parse',
    queue: ingestionJobs.parse.name,
    entry: WORKER_ENTRY,
  },
  'worker-ocr': {
    config: workerConfigs['worker-ocr'],
    pipeline: 'ingestion',
    step: 'ocr',
    queue: ingestionJobs.ocr.name,
    entry: WORKER_ENTRY,
  },
  'worker-chunk': {
    config: workerConfigs['worker-chunk'],
    pipeline: 'ingestion',
    step: 'chunk',
    queue: ingestionJobs.chunk.name,
    entry: WORKER_ENTRY,
  },
  'worker-embed': {
    config: workerConfigs['worker-embed'],
    pipeline: 'ingestion',
    step: 'embed',
    queue: ingestionJobs.embed.name,
    entry: WORKER_ENTRY,
  },
  'worker-store': {
    config: workerConfigs['worker-store'],
    pipeline: 'ingestion',
    step: 'store',
    queue: ingestionJobs.store.name,
    entry: WORKER_ENTRY,
  },
  'worker-retrieve': {
    config: workerConfigs['worker-retrieve'],
    pipeline: 'question',
    step: 'retrieve',
    queue: questionJobs.retrieve.name,
    entry: WORKER_ENTRY,
  },
  'worker-rerank': {
    config: workerConfigs['worker-rerank'],
    pipeline: 'question',
    step: 'rerank',
    queue: questionJobs.rerank.name,
    entry: WORKER_ENTRY,
  },
  'worker-llm': {
    config: workerConfigs['worker-llm'],
    pipeline: 'question',
    step: 'generate',
    queue: questionJobs.generate.name,
    entry: WORKER_ENTRY,
  },
  // Keeps places in sync with collections: the watched folder, and the sources' syncs (its queue).
  watcher: { config: watcherConfig, queue: sourceSyncJob.name, entry: 'apps/watcher/src/main.ts' },
} as const

export type ProcessName = keyof typeof PROCESSES
export const PROCESS_NAMES = Object.keys(PROCESSES) as ProcessName[]

/** The processes that consume a queue: one pipeline step each. */
export type WorkerProcessName = {
  [N in ProcessName]: (typeof PROCESSES)[N] extends { step: string } ? N : never
}[ProcessName]
export const WORKER_PROCESS_NAMES = PROCESS_NAMES.filter(
  (name): name is WorkerProcessName => 'step' in PROCESSES[name],
)

/** The worker processes of one pipeline, in the catalog's order. */
export function workersOf(pipeline: 'ingestion' | 'question'): WorkerProcessName[] {
  return WORKER_PROCESS_NAMES.filter((name) => PROCESSES[name].pipeline === pipeline)
}
