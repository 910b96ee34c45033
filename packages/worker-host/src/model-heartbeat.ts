import { publishComponentStatus } from '@rag/queue'
import type { ModelProvider } from '@rag/runtime'
import type { WorkerDeps } from './run-worker-process.ts'

/**
 * Loads a worker's model at start (not on its first job) and publishes the model's state for
 * /healthz every 15 s, while the process lives; `whenReady` runs after each beat the model is loaded.
 */
export function startModelHeartbeat<T>(
  { config, producer, logger, shutdown }: Pick<WorkerDeps, 'config' | 'producer' | 'logger' | 'shutdown'>,
  component: string,
  provider: ModelProvider<T>,
  whenReady?: (model: T) => Promise<void>,
): void {
  let running = false
  const beat = async () => {
    if (running || shutdown.closing) return
    running = true
    try {
      const model = await provider.get()
      await publishComponentStatus(producer.redis, config.redis.prefix, component, provider.state())
      if (model && whenReady) await whenReady(model)
    } catch (error) {
      logger.warn({ err: error, component }, 'model heartbeat failed')
    } finally {
      running = false
    }
  }
  const timer = setInterval(beat, 15_000)
  shutdown.add(`${component} heartbeat`, () => clearInterval(timer))
  void beat()
}
