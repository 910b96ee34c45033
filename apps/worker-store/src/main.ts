import { processEnvironment } from '@rag/config'
import { failDocumentOnFinalFailure, ingestionStages } from '@rag/ingest'
import { storeJob } from '@rag/queue'
import { runMain } from '@rag/runtime'
import { runWorkerProcess } from '@rag/worker-host'

runMain(() =>
  runWorkerProcess({
    name: 'worker-store',
    definition: storeJob,
    env: processEnvironment(),
    onFinalFailure: ({ pool }) => failDocumentOnFinalFailure(pool, 'store'),
    createHandler: async ({ config, pool, producer, logger }) =>
      ingestionStages.store({ pool, producer, logger }, config.models.embedding.model),
  }),
)
