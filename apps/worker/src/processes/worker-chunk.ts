import { ingestionPipeline, ingestionWorkerContext } from '@rag/ingest'
import { runWorkerProcess } from '@rag/worker-host'

/** Cuts each document's sections into the passages that are searched and cited. */
export const run = (env: NodeJS.ProcessEnv) =>
  runWorkerProcess({
    name: 'worker-chunk',
    pipeline: ingestionPipeline,
    env,
    context: (worker) => ingestionWorkerContext(worker),
  })
