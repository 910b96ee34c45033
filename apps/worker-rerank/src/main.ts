import { processEnvironment } from '@rag/config'
import { failQuestionOnFinalFailure, questionStageDeps, rerankStage } from '@rag/questions'
import { rerankJob } from '@rag/queue'
import { rerankerProvider } from '@rag/reranking'
import { runMain } from '@rag/runtime'
import { runWorkerProcess, startModelHeartbeat, timedProvider } from '@rag/worker-host'

runMain(() =>
  runWorkerProcess({
    name: 'worker-rerank',
    definition: rerankJob,
    env: processEnvironment(),
    createHandler: async (deps) => {
      const reranker = timedProvider(rerankerProvider(deps.config.models, deps.logger), {
        metrics: deps.metrics,
        component: 'reranker',
        calls: ['score'],
      })
      startModelHeartbeat(deps, 'reranker', reranker)
      return rerankStage({ ...questionStageDeps(deps), getReranker: () => reranker.get() })
    },
    onFinalFailure: (deps) => failQuestionOnFinalFailure(questionStageDeps(deps), 'rerank'),
  }),
)
