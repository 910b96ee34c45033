import { processEnvironment } from '@rag/config'
import { ingestionPipeline, ingestionWorkerContext } from '@rag/ingest'
import { runMain } from '@rag/runtime'
import { runWorkerProcess } from '@rag/worker-host'

runMain(() =>
  runWorkerProcess({
    name: 'worker-ocr',
    pipeline: ingestionPipeline,
    env: processEnvironment(),
    // Pages read at once, each a tesseract on a core of its own (OCR_CONCURRENCY).
    concurrency: (config) => config.parsing.ocr.concurrency,
    context: (worker) => ingestionWorkerContext(worker),
  }),
)
