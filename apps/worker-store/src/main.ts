import { processEnvironment } from '@rag/config'
import { failDocumentOnFinalFailure, ingestionStages, reanalyzeKeywordIndex } from '@rag/ingest'
import { storeJob } from '@rag/queue'
import { runMain } from '@rag/runtime'
import { runWorkerProcess } from '@rag/worker-host'

runMain(() =>
  runWorkerProcess({
    name: 'worker-store',
    definition: storeJob,
    env: processEnvironment(),
    onFinalFailure: ({ pool }) => failDocumentOnFinalFailure(pool, 'store'),
    createHandler: async ({ config, pool, producer, logger, shutdown }) => {
      // An index an older keyword analyser made is brought up to this one while new documents are stored.
      reanalyzeKeywordIndex(pool, { logger, isClosing: () => shutdown.closing }).catch((error: unknown) => {
        if (!shutdown.closing)
          logger.error({ err: error }, 'keyword re-analysis failed; the next start resumes it')
      })
      return ingestionStages.store({ pool, producer, logger }, config.models.embedding.model)
    },
  }),
)
