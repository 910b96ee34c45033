import { processEnvironment } from '@rag/config'
import { parseJob, UnrecoverableError } from '@rag/queue'
import { runMain } from '@rag/runtime'
import { runWorkerProcess } from '@rag/worker-host'

runMain(() =>
  runWorkerProcess({
    name: 'worker-parse',
    definition: parseJob,
    env: processEnvironment(),
    createHandler: async () => async () => {
      throw new UnrecoverableError('the parse stage is not implemented yet')
    },
  }),
)
