import { publishComponentStatus } from '@rag/queue'
import type { ModelProvider } from '@rag/runtime'
import type { WorkerDeps } from './run-worker-process.ts'

/**
 * Loads a worker's model at start (not on its first job) and publishes the model's state for
 * /healthz every 15 s, while the process lives (from its first moment: `loading` while it loads);
 * `whenReady` runs after each beat the model is loaded.
 */
export function startModelHeartbeat<T>(
  { config, producer, logger, shutdown }: Pick<WorkerDeps, 'config' | 'producer' | 'logger' | 'shutdown'>,
  component: string,
  provider: ModelProvider<T>,
  whenReady?: (model: T) => Promise<void>,
): void {
  let loading = false
  const publish = () =>
    publishComponentStatus(producer.redis, config.redis.prefix, component, provider.state())
  const beat = async () => {
    if (shutdown.closing) return
    try {
      // Said before the model is in and on every beat while it loads (a first load can take longer
      // than a status lives): a worker loading its model is not a missing worker.
      await publish()
      if (loading) return
      loading = true
      try {
        const model = await provider.get()
        await publish()
        if (model && whenReady) await whenReady(model)
      } finally {
        loading = false
      }
    } catch (error) {
      logger.warn({ err: error, component }, 'model heartbeat failed')
    }
  }
  const timer = setInterval(beat, 15_000)
  shutdown.add(`${component} heartbeat`, () => clearInterval(timer))
  void beat()
}
