import { ingestionPipeline, ingestionWorkerContext } from '@rag/ingest'
import { runWorkerProcess } from '@rag/worker-host'

/** Reads each uploaded file into its pages, rows and sections (a sandboxed child per file). */
export const run = (env: NodeJS.ProcessEnv) =>
  runWorkerProcess({
    name: 'worker-parse',
    pipeline: ingestionPipeline,
    env,
    context: (worker) => ingestionWorkerContext(worker),
  })
