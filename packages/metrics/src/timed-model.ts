import type { PlatformMetrics } from './platform-metrics.ts'

type Metrics = Pick<PlatformMetrics, 'inferenceDuration' | 'generatedTokens'>

/**
 * The same model with its async `calls` timed into rag_model_inference_seconds (and an LLM's
 * prompt/completion token counts, when a call's result carries them, into rag_llm_tokens_total).
 * The model is wrapped, not changed: code that uses it needs no metrics of its own.
 */
export function timedModel<T extends { model: string }>(
  model: T,
  { metrics, component, calls }: { metrics: Metrics; component: string; calls: (keyof T & string)[] },
): T {
  const timed = new Map<PropertyKey, (...args: unknown[]) => Promise<unknown>>()
  for (const call of calls) {
    const original = model[call]
    if (typeof original !== 'function') continue
    timed.set(call, async (...args: unknown[]) => {
      const end = metrics.inferenceDuration.startTimer({ component, model: model.model, call })
      try {
        const result: unknown = await original.apply(model, args)
        countTokens(metrics, model.model, result)
        return result
      } finally {
        end()
      }
    })
  }
  // A proxy, so a class with private fields keeps working: every other method runs on the model itself.
  return new Proxy(model, {
    get(target, property) {
      const call = timed.get(property)
      if (call) return call
      const value: unknown = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

function countTokens(metrics: Metrics, model: string, result: unknown) {
  if (typeof result !== 'object' || result === null) return
  const { promptTokens, completionTokens } = result as { promptTokens?: unknown; completionTokens?: unknown }
  if (typeof promptTokens === 'number') metrics.generatedTokens.inc({ model, kind: 'prompt' }, promptTokens)
  if (typeof completionTokens === 'number')
    metrics.generatedTokens.inc({ model, kind: 'completion' }, completionTokens)
}
