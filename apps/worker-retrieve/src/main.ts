import { processEnvironment } from '@rag/config'
import { retrieveJob, UnrecoverableError } from '@rag/queue'
import { runMain } from '@rag/runtime'
import { runWorkerProcess } from '@rag/worker-host'

runMain(() =>
  runWorkerProcess({
    name: 'worker-retrieve',
    definition: retrieveJob,
    env: processEnvironment(),
    createHandler: async () => async () => {
      throw new UnrecoverableError('the retrieve stage is not implemented yet')
    },
  }),
)
