import { llmProvider } from '@rag/llm'
import { ANSWER_SYSTEM_PROMPT, questionPipeline, questionWorkerContext } from '@rag/questions'
import { startModelHeartbeat, timedProvider } from '@rag/worker-host'
import { workerProcess } from '../worker-spec.ts'

/** Writes answers with the local LLM, loaded once. */
export const run = workerProcess({
  name: 'worker-llm',
  pipeline: questionPipeline,
  // One job per context sequence of the loaded model.
  concurrency: (config) => config.generation.concurrency,
  context: (worker) => {
    const { models, generation } = worker.config
    const llm = timedProvider(llmProvider(models, generation, worker.logger), {
      metrics: worker.metrics,
      component: 'llm',
      calls: ['generate'],
    })
    // Once loaded, the LLM reads the answer instructions ahead of the first question.
    startModelHeartbeat(worker, 'llm', llm, async (generator) => generator.prepare?.(ANSWER_SYSTEM_PROMPT))
    worker.shutdown.add('llm', async () => (await llm.get())?.close())
    return questionWorkerContext(worker, { getGenerator: () => llm.get() })
  },
})
