import { processEnvironment } from '@rag/config'
import { embedJob, UnrecoverableError } from '@rag/queue'
import { runMain } from '@rag/runtime'
import { runWorkerProcess } from '@rag/worker-host'

runMain(() =>
  runWorkerProcess({
    name: 'worker-embed',
    definition: embedJob,
    env: processEnvironment(),
    createHandler: async () => async () => {
      throw new UnrecoverableError('the embed stage is not implemented yet')
    },
  }),
)
