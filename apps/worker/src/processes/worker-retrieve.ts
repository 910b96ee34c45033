import { openReadReplica } from '@rag/db'
import { embedderProvider } from '@rag/embeddings'
import { questionPipeline, questionWorkerContext } from '@rag/questions'
import { timedProvider } from '@rag/worker-host'
import { workerProcess } from '../worker-spec.ts'

/** Searches for each question's passages (on a read replica when there is one). */
export const run = workerProcess({
  name: 'worker-retrieve',
  pipeline: questionPipeline,
  context: (worker) => {
    // The query embedder (the same model as the passages'), loaded now rather than on the first question.
    const embedder = timedProvider(embedderProvider(worker.config.models, worker.logger), {
      metrics: worker.metrics,
      component: 'embedding',
      calls: ['embedQuery'],
    })
    void embedder.get()
    // Searches on a read replica when there is one (DATABASE_READ_URL).
    const { url, maxLagSeconds } = worker.config.readReplica
    const reads = url
      ? openReadReplica({
          primary: worker.pool,
          url,
          schema: worker.config.database.schema,
          maxLagSeconds,
          logger: worker.logger,
        })
      : undefined
    if (reads) worker.shutdown.add('read replica', () => reads.close())
    return questionWorkerContext(worker, { getEmbedder: () => embedder.get(), ...(reads ? { reads } : {}) })
  },
})
