import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@rag/runtime'
import { afterEach, describe, expect, it } from 'vitest'
import { createRedisClient, waitForRedis } from './redis-connection.ts'
import { checkRedisSettings } from './redis-settings.ts'

// What the gateway warns about at start: a Redis BullMQ cannot trust with its jobs.
let server: ChildProcess | undefined
let dir: string | undefined
afterEach(async () => {
  server?.kill('SIGKILL')
  if (dir) await rm(dir, { recursive: true, force: true })
})

const redisWith = async (settings: string[]) => {
  const port = await freePort()
  dir = await mkdtemp(join(tmpdir(), 'rag-redis-settings-'))
  server = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', ...settings],
    {
      stdio: 'ignore',
    },
  )
  const url = `redis://127.0.0.1:${port}`
  for (let tries = 0; ; tries++) {
    try {
      await waitForRedis(url, 500)
      break
    } catch (error) {
      if (tries > 50) throw error
    }
  }
  const client = createRedisClient(url)
  await client.connect()
  return client
}

describe('the Redis settings BullMQ needs', () => {
  it('names an evicting policy and a Redis that keeps nothing over a restart', async () => {
    const redis = await redisWith(['--maxmemory-policy', 'allkeys-lru', '--appendonly', 'no'])
    const problems = await checkRedisSettings(redis)
    expect(problems.map((problem) => [problem.setting, problem.value])).toEqual([
      ['maxmemory-policy', 'allkeys-lru'],
      ['appendonly', 'no'],
    ])
    expect(problems[0]?.message).toMatch(/noeviction/)
    redis.disconnect()
  })

  it('is content with noeviction and an append-only file', async () => {
    const redis = await redisWith([
      '--maxmemory-policy',
      'noeviction',
      '--appendonly',
      'yes',
      '--dir',
      '/tmp',
    ])
    expect(await checkRedisSettings(redis)).toEqual([])
    redis.disconnect()
  })
})
