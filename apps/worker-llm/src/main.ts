import { processEnvironment } from '@rag/config'
import { llmProvider } from '@rag/llm'
import { failQuestionOnFinalFailure, generateStage, questionStageDeps } from '@rag/questions'
import { generateJob } from '@rag/queue'
import { runMain } from '@rag/runtime'
import { runWorkerProcess, startModelHeartbeat, timedProvider } from '@rag/worker-host'

runMain(() =>
  runWorkerProcess({
    name: 'worker-llm',
    definition: generateJob,
    env: processEnvironment(),
    // One job per context sequence of the loaded model.
    concurrency: (config) => config.generation.concurrency,
    createHandler: async (deps) => {
      const { models, generation } = deps.config
      const llm = timedProvider(llmProvider(models, generation, deps.logger), {
        metrics: deps.metrics,
        component: 'llm',
        calls: ['generate'],
      })
      startModelHeartbeat(deps, 'llm', llm)
      deps.shutdown.add('llm', async () => (await llm.get())?.close())
      return generateStage({ ...questionStageDeps(deps), getGenerator: () => llm.get(), generation })
    },
    onFinalFailure: (deps) => failQuestionOnFinalFailure(questionStageDeps(deps), 'generate'),
  }),
)
