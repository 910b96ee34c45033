import { questionPipeline, questionWorkerContext } from '@rag/questions'
import { rerankerProvider } from '@rag/reranking'
import { runWorkerProcess, startModelHeartbeat, timedProvider } from '@rag/worker-host'

/** Scores each question's candidates with the cross-encoder, loaded once. */
export const run = (env: NodeJS.ProcessEnv) =>
  runWorkerProcess({
    name: 'worker-rerank',
    pipeline: questionPipeline,
    env,
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
