import { embedderProvider } from '@rag/embeddings'
import { backfillEmbeddings } from '@rag/ingest'
import { startModelHeartbeat, timedProvider, type WorkerDeps } from '@rag/worker-host'

/**
 * The embedding model of this worker process: loaded once (downloaded on first use when allowed),
 * its state published for /healthz, and chunks left pending while it was unavailable back-filled
 * whenever it is ready.
 */
export function startEmbeddingService(deps: WorkerDeps) {
  const { config, pool, logger, shutdown } = deps
  const provider = timedProvider(embedderProvider(config.models, logger), {
    metrics: deps.metrics,
    component: 'embedding',
    calls: ['embedPassages', 'embedQuery'],
  })
  startModelHeartbeat(deps, 'embedding', provider, async (embedder) => {
    while (!shutdown.closing && (await backfillEmbeddings(pool, embedder)) > 0) {
      logger.debug('back-filled a batch of pending embeddings')
    }
  })
  return provider
}
