import { processEnvironment } from '@rag/config'
import { ingestionPipeline, ingestionWorkerContext } from '@rag/ingest'
import { runMain } from '@rag/runtime'
import { runWorkerProcess } from '@rag/worker-host'
import { startEmbeddingService } from './embedding-service.ts'

runMain(() =>
  runWorkerProcess({
    name: 'worker-embed',
    pipeline: ingestionPipeline,
    env: processEnvironment(),
    context: (worker) => {
      const embedder = startEmbeddingService(worker)
      return ingestionWorkerContext(worker, () => embedder.get())
    },
  }),
)
