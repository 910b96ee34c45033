import { processEnvironment } from '@rag/config'
import { chunkJob, UnrecoverableError } from '@rag/queue'
import { runMain } from '@rag/runtime'
import { runWorkerProcess } from '@rag/worker-host'

runMain(() =>
  runWorkerProcess({
    name: 'worker-chunk',
    definition: chunkJob,
    env: processEnvironment(),
    createHandler: async () => async () => {
      throw new UnrecoverableError('the chunk stage is not implemented yet')
    },
  }),
)
