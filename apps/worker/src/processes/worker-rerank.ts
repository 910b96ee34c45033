import { questionPipeline, questionWorkerContext } from '@rag/questions'
import { rerankerProvider } from '@rag/reranking'
import { startModelHeartbeat, timedProvider } from '@rag/worker-host'
import { workerProcess } from '../worker-spec.ts'

/** Scores each question's candidates with the cross-encoder, loaded once. */
export const run = workerProcess({
  name: 'worker-rerank',
  pipeline: questionPipeline,
  context: (worker) => {
    const reranker = timedProvider(rerankerProvider(worker.config.models, worker.logger), {
      metrics: worker.metrics,
      component: 'reranker',
      calls: ['score'],
    })
    startModelHeartbeat(worker, 'reranker', reranker)
    return questionWorkerContext(worker, { getReranker: () => reranker.get() })
  },
})
