import { processEnvironment } from '@rag/config'
import { generateJob, UnrecoverableError } from '@rag/queue'
import { runMain } from '@rag/runtime'
import { runWorkerProcess } from '@rag/worker-host'

runMain(() =>
  runWorkerProcess({
    name: 'worker-llm',
    definition: generateJob,
    env: processEnvironment(),
    createHandler: async () => async () => {
      throw new UnrecoverableError('the llm stage is not implemented yet')
    },
  }),
)
