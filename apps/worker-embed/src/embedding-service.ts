import { embedderProvider } from '@rag/embeddings'
import { backfillEmbeddings } from '@rag/ingest'
import { publishComponentStatus } from '@rag/queue'
import type { WorkerDeps } from '@rag/worker-host'

/**
 * The embedding model of this worker process: loaded once (downloaded on first use when allowed),
 * its state published for /healthz every 15 s, and chunks left pending while it was unavailable
 * back-filled whenever it is ready.
 */
export function startEmbeddingService({ config, pool, producer, logger, shutdown }: WorkerDeps) {
  const provider = embedderProvider(config.models, logger)
  let running = false
  const tick = async () => {
    if (running || shutdown.closing) return
    running = true
    try {
      const embedder = await provider.get()
      await publishComponentStatus(producer.redis, config.redis.prefix, 'embedding', provider.state())
      while (embedder && !shutdown.closing && (await backfillEmbeddings(pool, embedder)) > 0) {
        logger.debug('back-filled a batch of pending embeddings')
      }
    } catch (error) {
      logger.warn({ err: error }, 'embedding maintenance failed')
    } finally {
      running = false
    }
  }
  const timer = setInterval(tick, 15_000)
  shutdown.add('embedding maintenance', () => clearInterval(timer))
  void tick()
  return provider
}
