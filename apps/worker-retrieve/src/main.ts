import { processEnvironment } from '@rag/config'
import { embedderProvider } from '@rag/embeddings'
import { questionPipeline, questionWorkerContext } from '@rag/questions'
import { runMain } from '@rag/runtime'
import { runWorkerProcess, timedProvider } from '@rag/worker-host'

runMain(() =>
  runWorkerProcess({
    name: 'worker-retrieve',
    pipeline: questionPipeline,
    env: processEnvironment(),
    context: (worker) => {
      // The query embedder (the same model as the passages'), loaded now rather than on the first question.
      const embedder = timedProvider(embedderProvider(worker.config.models, worker.logger), {
        metrics: worker.metrics,
        component: 'embedding',
        calls: ['embedQuery'],
      })
      void embedder.get()
      return questionWorkerContext(worker, { getEmbedder: () => embedder.get() })
    },
  }),
)
