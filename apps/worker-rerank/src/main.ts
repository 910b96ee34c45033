import { processEnvironment } from '@rag/config'
import { questionPipeline, questionWorkerContext } from '@rag/questions'
import { rerankerProvider } from '@rag/reranking'
import { runMain } from '@rag/runtime'
import { runWorkerProcess, startModelHeartbeat, timedProvider } from '@rag/worker-host'

runMain(() =>
  runWorkerProcess({
    name: 'worker-rerank',
    pipeline: questionPipeline,
    env: processEnvironment(),
    context: (worker) => {
      const reranker = timedProvider(rerankerProvider(worker.config.models, worker.logger), {
        metrics: worker.metrics,
        component: 'reranker',
        calls: ['score'],
      })
      startModelHeartbeat(worker, 'reranker', reranker)
      return questionWorkerContext(worker, { getReranker: () => reranker.get() })
    },
  }),
)
