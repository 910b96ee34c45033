import { ingestionPipeline, ingestionWorkerContext } from '@rag/ingest'
import { runWorkerProcess } from '@rag/worker-host'
import { startEmbeddingService } from './embedding-service.ts'

/** Embeds passages with the configured model, loaded once, and back-fills those left pending. */
export const run = (env: NodeJS.ProcessEnv) =>
  runWorkerProcess({
    name: 'worker-embed',
    pipeline: ingestionPipeline,
    env,
    context: (worker) => {
      const embedder = startEmbeddingService(worker)
      return ingestionWorkerContext(worker, () => embedder.get())
    },
  })
