import { type PlatformMetrics, timedModel } from '@rag/metrics'
import type { ModelProvider } from '@rag/runtime'

/**
 * A model provider whose model has its calls timed (rag_model_inference_seconds on the worker's
 * /metrics); the wrapped model is made once per loaded model.
 */
export function timedProvider<T extends { model: string }>(
  provider: ModelProvider<T>,
  options: { metrics: PlatformMetrics; component: string; calls: (keyof T & string)[] },
): ModelProvider<T> {
  const wrapped = new WeakMap<T, T>()
  const timedOf = (model: T | null) => {
    if (!model) return null
    let timed = wrapped.get(model)
    if (!timed) {
      timed = timedModel(model, options)
      wrapped.set(model, timed)
    }
    return timed
  }
  return {
    state: () => provider.state(),
    ready: () => timedOf(provider.ready()),
    get: async () => timedOf(await provider.get()),
  }
}
