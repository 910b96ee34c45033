import { processEnvironment } from '@rag/config'
import { runMain } from '@rag/runtime'
import { runWorker } from './worker-processes.ts'

// Every worker process of the catalog, the one named: `node apps/worker/src/main.ts worker-parse`.
runMain(() => runWorker(process.argv[2], processEnvironment()))
