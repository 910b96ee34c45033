import { ingestionPipeline, ingestionWorkerContext, reanalyzeKeywordIndex } from '@rag/ingest'
import { workerProcess } from '../worker-spec.ts'

// The ingestion workers that load no model (the embedding worker has a file of its own).

/** A worker of the pipeline's own context and nothing else. */
const plainWorker = (name: 'worker-parse' | 'worker-chunk') =>
  workerProcess({ name, pipeline: ingestionPipeline, context: (worker) => ingestionWorkerContext(worker) })

/** Reads each uploaded file into its pages, rows and sections (a sandboxed child per file). */
export const parse = plainWorker('worker-parse')

/** Reads the pages without a text layer, one tesseract per page at a time (OCR_CONCURRENCY). */
export const ocr = workerProcess({
  name: 'worker-ocr',
  pipeline: ingestionPipeline,
  concurrency: (config) => config.parsing.ocr.concurrency,
  context: (worker) => ingestionWorkerContext(worker),
})

/** Cuts each document's sections into the passages that are searched and cited. */
export const chunk = plainWorker('worker-chunk')

/** Stores passages with their vectors and keyword terms; brings an older keyword index up to date. */
export const store = workerProcess({
  name: 'worker-store',
  pipeline: ingestionPipeline,
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
