import { processEnvironment } from '@rag/config'
import { embedderProvider } from '@rag/embeddings'
import { failQuestionOnFinalFailure, questionStageDeps, retrieveStage } from '@rag/questions'
import { retrieveJob } from '@rag/queue'
import { runMain } from '@rag/runtime'
import { runWorkerProcess, timedProvider } from '@rag/worker-host'

runMain(() =>
  runWorkerProcess({
    name: 'worker-retrieve',
    definition: retrieveJob,
    env: processEnvironment(),
    createHandler: async (deps) => {
      // The query embedder (the same model as the passages'), loaded now rather than on the first question.
      const embedder = timedProvider(embedderProvider(deps.config.models, deps.logger), {
        metrics: deps.metrics,
        component: 'embedding',
        calls: ['embedQuery'],
      })
      void embedder.get()
      return retrieveStage({ ...questionStageDeps(deps), getEmbedder: () => embedder.get() })
    },
    onFinalFailure: (deps) => failQuestionOnFinalFailure(questionStageDeps(deps), 'retrieve'),
  }),
)
