import type { WorkerProcessName } from '@rag/process-catalog'
import { runWorkerProcess, type WorkerProcessOptions } from '@rag/worker-host'

/** A worker process's wiring (its name, pipeline and context), started in the environment given. */
export const workerProcess =
  <N extends WorkerProcessName, Ctx>(options: Omit<WorkerProcessOptions<N, Ctx>, 'env'>) =>
  (env: NodeJS.ProcessEnv): Promise<void> =>
    runWorkerProcess({ ...options, env })
