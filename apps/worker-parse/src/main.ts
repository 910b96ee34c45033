import { processEnvironment } from '@rag/config'
import { ingestionPipeline, ingestionWorkerContext } from '@rag/ingest'
import { runMain } from '@rag/runtime'
import { runWorkerProcess } from '@rag/worker-host'

runMain(() =>
  runWorkerProcess({
    name: 'worker-parse',
    pipeline: ingestionPipeline,
    env: processEnvironment(),
    context: (worker) => ingestionWorkerContext(worker),
  }),
)
