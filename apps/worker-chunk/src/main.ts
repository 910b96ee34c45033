import { processEnvironment } from '@rag/config'
import { failDocumentOnFinalFailure, ingestionStages } from '@rag/ingest'
import { chunkJob } from '@rag/queue'
import { runMain } from '@rag/runtime'
import { runWorkerProcess } from '@rag/worker-host'

runMain(() =>
  runWorkerProcess({
    name: 'worker-chunk',
    definition: chunkJob,
    env: processEnvironment(),
    onFinalFailure: ({ pool }) => failDocumentOnFinalFailure(pool, 'chunk'),
    createHandler: async ({ config, pool, producer, logger }) =>
      ingestionStages.chunk({ pool, producer, logger }, config),
  }),
)
