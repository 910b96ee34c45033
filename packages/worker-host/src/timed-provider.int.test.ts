import { processEnvironment } from '@rag/config'
import { findTestAsset, testConfig } from '@rag/config/testing'
import { loadTestGenerator } from '@rag/llm/testing'
import { createLogger } from '@rag/log'
import { createPlatformMetrics } from '@rag/metrics'
import { createModelProvider } from '@rag/runtime'
import { describe, expect, it } from 'vitest'
import { timedProvider } from './timed-provider.ts'

// What an operator reads off the LLM worker's /metrics after a real generation: how long the
// model took, and how many tokens it read and wrote (tokens/s = their rates' ratio).
const { path: gguf, found } = await findTestAsset(
  testConfig.parse(processEnvironment()).test,
  'models/gguf/stories260K.gguf',
)

describe.skipIf(!found)('model inference metrics', () => {
  it('times each generation and counts its tokens, labelled with the model', async () => {
    const metrics = createPlatformMetrics('worker-llm')
    const provider = createModelProvider({
      name: 'stories260K',
      setting: 'LLM_MODEL',
      load: () => loadTestGenerator(gguf),
      logger: createLogger({ name: 'test', level: 'silent' }),
    })
    const llm = timedProvider(provider, { metrics, component: 'llm', calls: ['generate'] })
    const generator = await llm.get()
    if (!generator) throw new Error('the test model did not load')
    try {
      expect(await llm.get()).toBe(generator)
      const first = await generator.generate({
        system: '',
        prompt: 'Once upon a time',
        maxTokens: 12,
        temperature: 0,
      })
      await generator.generate({ system: '', prompt: 'The cat', maxTokens: 5, temperature: 0 })
      expect(generator.countTokens('hello')).toBeGreaterThan(0)
      const text = await metrics.registry.metrics()
      const count = /^rag_model_inference_seconds_count\{([^}]*)\} (\d+)$/m.exec(text)
      expect(count?.[1]).toMatch(/component="llm"/)
      expect(count?.[1]).toMatch(/model="[^"]*stories260K[^"]*"/)
      expect(count?.[1]).toMatch(/call="generate"/)
      expect(count?.[2]).toBe('2')
      const completion = Number(/rag_llm_tokens_total\{[^}]*kind="completion"[^}]*\} (\d+)/.exec(text)?.[1])
      expect(completion).toBeGreaterThanOrEqual(first.completionTokens)
      expect(text).toMatch(/rag_llm_tokens_total\{[^}]*kind="prompt"[^}]*\} [1-9]/)
    } finally {
      await generator.close()
    }
  })
})
