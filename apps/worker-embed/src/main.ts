import { processEnvironment } from '@rag/config'
import { createEmbedHandler } from '@rag/ingest'
import { embedJob } from '@rag/queue'
import { runMain } from '@rag/runtime'
import { runWorkerProcess } from '@rag/worker-host'
import { startEmbeddingService } from './embedding-service.ts'

runMain(() =>
  runWorkerProcess({
    name: 'worker-embed',
    definition: embedJob,
    env: processEnvironment(),
    createHandler: async (deps) => {
      const provider = startEmbeddingService(deps)
      return createEmbedHandler(deps, () => provider.get())
    },
  }),
)
