import { WORKER_PROCESS_NAMES, type WorkerProcessName } from '@rag/process-catalog'

/**
 * Each worker process of the catalog, and where its wiring is: loaded only by the process that
 * runs it (imported when asked for), so the parse worker never loads the LLM runtime, nor the LLM
 * worker the parsers. A worker added to the catalog without a line here fails the typecheck.
 */
const WORKERS: Record<WorkerProcessName, () => Promise<{ run(env: NodeJS.ProcessEnv): Promise<void> }>> = {
  'worker-parse': async () => ({ run: (await import('./processes/ingestion-workers.ts')).parse }),
  'worker-ocr': async () => ({ run: (await import('./processes/ingestion-workers.ts')).ocr }),
  'worker-chunk': async () => ({ run: (await import('./processes/ingestion-workers.ts')).chunk }),
  'worker-embed': () => import('./processes/worker-embed.ts'),
  'worker-store': async () => ({ run: (await import('./processes/ingestion-workers.ts')).store }),
  'worker-retrieve': () => import('./processes/worker-retrieve.ts'),
  'worker-rerank': () => import('./processes/worker-rerank.ts'),
  'worker-llm': () => import('./processes/worker-llm.ts'),
}

const isWorkerName = (name: string | undefined): name is WorkerProcessName =>
  (WORKER_PROCESS_NAMES as readonly (string | undefined)[]).includes(name)

/** Runs the worker process named (the command line's one argument) until it is told to stop. */
export async function runWorker(name: string | undefined, env: NodeJS.ProcessEnv): Promise<void> {
  if (!isWorkerName(name))
    throw Object.assign(
      new Error(
        `${name ? `no worker process is named ${name}` : 'name the worker process to run'}: one of ${WORKER_PROCESS_NAMES.join(', ')}`,
      ),
      { userFacing: true },
    )
  await (await WORKERS[name]()).run(env)
}
