import { processEnvironment } from '@rag/config'
import { failDocumentOnFinalFailure, ingestionStages } from '@rag/ingest'
import { createParseSandbox } from '@rag/parsers'
import { parseJob } from '@rag/queue'
import { runMain } from '@rag/runtime'
import { runWorkerProcess } from '@rag/worker-host'

runMain(() =>
  runWorkerProcess({
    name: 'worker-parse',
    definition: parseJob,
    env: processEnvironment(),
    createHandler: async ({ config, pool, producer, logger, shutdown }) => {
      const sandbox = createParseSandbox(config.parsing.sandbox)
      shutdown.add('parse sandbox', async () => sandbox.close())
      return ingestionStages.parse({ pool, producer, logger }, config, sandbox)
    },
    onFinalFailure: ({ pool }) => failDocumentOnFinalFailure(pool, 'parse'),
  }),
)
