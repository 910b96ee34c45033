import { ingestionPipeline, ingestionWorkerContext } from '@rag/ingest'
import { runWorkerProcess } from '@rag/worker-host'

/** Reads the pages without a text layer, one tesseract per page at a time (OCR_CONCURRENCY). */
export const run = (env: NodeJS.ProcessEnv) =>
  runWorkerProcess({
    name: 'worker-ocr',
    pipeline: ingestionPipeline,
    env,
    // Pages read at once, each a tesseract on a core of its own (OCR_CONCURRENCY).
    concurrency: (config) => config.parsing.ocr.concurrency,
    context: (worker) => ingestionWorkerContext(worker),
  })
