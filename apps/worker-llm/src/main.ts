import { processEnvironment } from '@rag/config'
import { llmProvider } from '@rag/llm'
import { questionPipeline, questionWorkerContext } from '@rag/questions'
import { runMain } from '@rag/runtime'
import { runWorkerProcess, startModelHeartbeat, timedProvider } from '@rag/worker-host'

runMain(() =>
  runWorkerProcess({
    name: 'worker-llm',
    pipeline: questionPipeline,
    env: processEnvironment(),
    // One job per context sequence of the loaded model.
    concurrency: (config) => config.generation.concurrency,
    context: (worker) => {
      const { models, generation } = worker.config
      const llm = timedProvider(llmProvider(models, generation, worker.logger), {
        metrics: worker.metrics,
        component: 'llm',
        calls: ['generate'],
      })
      startModelHeartbeat(worker, 'llm', llm)
      worker.shutdown.add('llm', async () => (await llm.get())?.close())
      return questionWorkerContext(worker, { getGenerator: () => llm.get() })
    },
  }),
)
