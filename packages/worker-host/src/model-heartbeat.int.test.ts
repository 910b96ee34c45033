import { createLogger } from '@rag/log'
import { createProducer, type Producer, readComponentStatuses } from '@rag/queue'
import { dropPrefix, testRedisUrl, uniquePrefix } from '@rag/queue/testing'
import { createModelProvider, createShutdown } from '@rag/runtime'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startModelHeartbeat } from './model-heartbeat.ts'
import type { WorkerDeps } from './run-worker-process.ts'

// In its first minute a worker is loading its model: /healthz (and the Documents view after it)
// must say "loading", never "the worker has not reported: is it running?".
const prefix = uniquePrefix('model-heartbeat')
const logger = createLogger({ name: 'test', level: 'silent' })
let producer: Producer

beforeAll(async () => {
  producer = await createProducer({ url: testRedisUrl(), prefix })
})

afterAll(async () => {
  await dropPrefix(testRedisUrl(), prefix)
  await producer.close()
})

it('reports the model as loading while it loads, then ready', async () => {
  let loaded: (model: string) => void = () => {}
  const provider = createModelProvider({
    name: 'test/slow-model',
    setting: 'EMBEDDING_MODEL',
    load: () => new Promise<string>((resolve) => (loaded = resolve)),
    logger,
  })
  const shutdown = createShutdown({ logger, timeoutMs: 1000 })
  const config = { redis: { prefix } } as WorkerDeps['config']
  startModelHeartbeat({ config, producer, logger, shutdown }, 'embedding', provider)
  const state = async () =>
    (await readComponentStatuses(producer.redis, prefix, ['embedding'])).embedding?.state ?? null
  try {
    await expect.poll(state).toBe('loading')
    loaded('the model')
    await expect.poll(state).toBe('ready')
  } finally {
    await shutdown.close('test over')
  }
})
