import { processEnvironment } from '@rag/config'
import { storeJob, UnrecoverableError } from '@rag/queue'
import { runMain } from '@rag/runtime'
import { runWorkerProcess } from '@rag/worker-host'

runMain(() =>
  runWorkerProcess({
    name: 'worker-store',
    definition: storeJob,
    env: processEnvironment(),
    createHandler: async () => async () => {
      throw new UnrecoverableError('the store stage is not implemented yet')
    },
  }),
)
