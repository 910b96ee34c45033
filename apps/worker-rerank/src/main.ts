import { processEnvironment } from '@rag/config'
import { rerankJob, UnrecoverableError } from '@rag/queue'
import { runMain } from '@rag/runtime'
import { runWorkerProcess } from '@rag/worker-host'

runMain(() =>
  runWorkerProcess({
    name: 'worker-rerank',
    definition: rerankJob,
    env: processEnvironment(),
    createHandler: async () => async () => {
      throw new UnrecoverableError('the rerank stage is not implemented yet')
    },
  }),
)
