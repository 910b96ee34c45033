import { processEnvironment } from '@rag/config'
import { createParseHandler } from '@rag/ingest'
import { parseJob } from '@rag/queue'
import { runMain } from '@rag/runtime'
import { runWorkerProcess } from '@rag/worker-host'

runMain(() =>
  runWorkerProcess({
    name: 'worker-parse',
    definition: parseJob,
    env: processEnvironment(),
    createHandler: async ({ config, pool, producer, logger }) =>
      createParseHandler(
        { pool, producer, logger },
        { sectionsPerPart: config.storage.sectionsPerPart, maxSectionChars: config.chunking.parentMaxChars },
      ),
  }),
)
