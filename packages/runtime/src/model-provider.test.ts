import { createLogger } from '@rag/log'
import { describe, expect, it } from 'vitest'
import { createModelProvider } from './model-provider.ts'

const logger = createLogger({ name: 'test', level: 'silent' })

describe('a model asked for without waiting (ready)', () => {
  it('is null at once while it loads, loads once, and is there once loaded', async () => {
    let loads = 0
    let finish: (model: string) => void = () => {}
    const provider = createModelProvider<string>({
      name: 'e5',
      setting: 'EMBEDDING_MODEL',
      logger,
      load: () => {
        loads += 1
        // A download that takes its time (offline: until it times out): the request must not wait.
        return new Promise<string>((resolve) => {
          finish = resolve
        })
      },
    })
    expect(provider.ready()).toBeNull()
    expect(provider.ready()).toBeNull()
    expect(loads).toBe(1)
    expect(provider.state()).toEqual({ state: 'loading' })
    finish('the model')
    await expect.poll(() => provider.ready()).toBe('the model')
    expect(loads).toBe(1)
  })

  it('is null without a load when the model is off', () => {
    const provider = createModelProvider<string>({
      name: null,
      setting: 'EMBEDDING_MODEL',
      logger,
      load: async () => 'never',
    })
    expect(provider.ready()).toBeNull()
    expect(provider.state()).toEqual({ state: 'disabled' })
  })
})
