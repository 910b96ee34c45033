import { ingestionPipeline, ingestionWorkerContext } from '@rag/ingest'
import { workerProcess } from '../worker-spec.ts'
import { startEmbeddingService } from './embedding-service.ts'

/** Embeds passages with the configured model, loaded once, and back-fills those left pending. */
export const run = workerProcess({
  name: 'worker-embed',
  pipeline: ingestionPipeline,
  context: (worker) => {
    const embedder = startEmbeddingService(worker)
    return ingestionWorkerContext(worker, () => embedder.get())
  },
})
