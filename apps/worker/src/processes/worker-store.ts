import { ingestionPipeline, ingestionWorkerContext, reanalyzeKeywordIndex } from '@rag/ingest'
import { runWorkerProcess } from '@rag/worker-host'

/** Stores passages with their vectors and keyword terms; brings an older keyword index up to date. */
export const run = (env: NodeJS.ProcessEnv) =>
  runWorkerProcess({
    name: 'worker-store',
    pipeline: ingestionPipeline,
    env,
    context: (worker) => {
      const { pool, logger, shutdown } = worker
      // An index an older keyword analyser made is brought up to this one while new documents are stored.
      reanalyzeKeywordIndex(pool, { logger, isClosing: () => shutdown.closing }).catch((error: unknown) => {
        if (!shutdown.closing)
          logger.error({ err: error }, 'keyword re-analysis failed; the next start resumes it')
      })
      return ingestionWorkerContext(worker)
    },
  })
