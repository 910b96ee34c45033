import { processEnvironment } from '@rag/config'
import { failDocumentOnFinalFailure, ingestionStages } from '@rag/ingest'
import { embedJob } from '@rag/queue'
import { runMain } from '@rag/runtime'
import { runWorkerProcess } from '@rag/worker-host'
import { startEmbeddingService } from './embedding-service.ts'

runMain(() =>
  runWorkerProcess({
    name: 'worker-embed',
    definition: embedJob,
    env: processEnvironment(),
    onFinalFailure: ({ pool }) => failDocumentOnFinalFailure(pool, 'embed'),
    createHandler: async (deps) => {
      const provider = startEmbeddingService(deps)
      return ingestionStages.embed(deps, () => provider.get())
    },
  }),
)
