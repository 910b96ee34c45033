import { processEnvironment } from '@rag/config'
import { ingestionPipeline, ingestionWorkerContext, reanalyzeKeywordIndex } from '@rag/ingest'
import { runMain } from '@rag/runtime'
import { runWorkerProcess } from '@rag/worker-host'

runMain(() =>
  runWorkerProcess({
    name: 'worker-store',
    pipeline: ingestionPipeline,
    env: processEnvironment(),
    context: (worker) => {
      const { pool, logger, shutdown } = worker
      // An index an older keyword analyser made is brought up to this one while new documents are stored.
      reanalyzeKeywordIndex(pool, { logger, isClosing: () => shutdown.closing }).catch((error: unknown) => {
        if (!shutdown.closing)
          logger.error({ err: error }, 'keyword re-analysis failed; the next start resumes it')
      })
      return ingestionWorkerContext(worker)
    },
  }),
)
