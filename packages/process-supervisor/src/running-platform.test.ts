import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { evalConfig } from '@rag/config'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { claimDataDir } from './instance-lock.ts'
import { readRunningPlatform, withRunningPlatform } from './running-platform.ts'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rag-running-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

const addresses = {
  databaseUrl: 'postgres://postgres@127.0.0.1:41234/postgres',
  redisUrl: 'redis://127.0.0.1:41235',
  gatewayUrl: 'http://127.0.0.1:3000',
}

it("gives a command on the platform's data folder its embedded database, queues and gateway", async () => {
  expect(await withRunningPlatform({}, dir)).toEqual({ env: {}, used: [] })
  const claim = await claimDataDir(dir)
  await claim.announce(addresses)
  const { env, used } = await withRunningPlatform({ LOG_LEVEL: 'warn' }, dir)
  expect(used).toEqual(['DATABASE_URL', 'REDIS_URL', 'GATEWAY_URL'])
  // The command's own config then parses: no "DATABASE_URL is not set" on the embedded default.
  const config = evalConfig.parse(env)
  expect(config.database.url).toBe(addresses.databaseUrl)
  expect(config.redis.url).toBe(addresses.redisUrl)
  // What the environment names wins; nothing is taken once the platform has stopped.
  const given = await withRunningPlatform({ DATABASE_URL: 'postgres://u@db/x' }, dir)
  expect(given.env.DATABASE_URL).toBe('postgres://u@db/x')
  expect(given.used).toEqual(['REDIS_URL', 'GATEWAY_URL'])
  await claim.release()
  expect(await readRunningPlatform(dir)).toBeNull()
})

it('takes nothing from a claim whose process is gone', async () => {
  await writeFile(join(dir, 'rag-platform.pid'), JSON.stringify({ pid: 2 ** 22 + 1, ...addresses }))
  expect(await withRunningPlatform({}, dir)).toEqual({ env: {}, used: [] })
})
