import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLogger } from '@rag/log'
import { RedisUnavailableError, waitForRedis } from '@rag/queue'
import { testRedisUrl } from '@rag/queue/testing'
import { freePort } from '@rag/runtime'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveRedis } from './local-redis.ts'

const logger = createLogger({ name: 'test', level: 'silent' })
let dataDir: string
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'rag-redis-'))
})
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true })
})

describe('finding a Redis for pnpm start', () => {
  it('uses the one that answers at the default address', async () => {
    const redis = await resolveRedis(
      { url: testRedisUrl(), explicit: false, prefix: 'x' },
      { dataDir, logger },
    )
    expect(redis.url).toBe(testRedisUrl())
    await redis.close()
  })

  it('starts redis-server on a free port when none answers, and stops it on close', async () => {
    const nobody = `redis://127.0.0.1:${await freePort()}`
    const redis = await resolveRedis({ url: nobody, explicit: false, prefix: 'x' }, { dataDir, logger })
    expect(redis.url).not.toBe(nobody)
    await waitForRedis(redis.url)
    await redis.close()
    await expect(waitForRedis(redis.url, 300)).rejects.toBeInstanceOf(RedisUnavailableError)
  })

  it('says how to get one when there is neither a Redis nor redis-server', async () => {
    const nobody = `redis://127.0.0.1:${await freePort()}`
    const error = await resolveRedis(
      { url: nobody, explicit: false, prefix: 'x' },
      { dataDir, logger, command: 'redis-server-that-is-not-installed' },
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RedisUnavailableError)
    expect(String(error)).toMatch(/redis-server is not installed.*docker compose up -d redis/)
  })

  it('insists on an explicit REDIS_URL instead of falling back', async () => {
    const nobody = `redis://127.0.0.1:${await freePort()}`
    await expect(
      resolveRedis({ url: nobody, explicit: true, prefix: 'x' }, { dataDir, logger }),
    ).rejects.toBeInstanceOf(RedisUnavailableError)
  })
})
