import { randomBytes } from 'node:crypto'
import { processEnvironment } from '@rag/config'
import { testConfig } from '@rag/config/testing'
import { Redis } from 'ioredis'
import { redisOptionsFromUrl } from './redis-connection.ts'

export function testRedisUrl(): string {
  return testConfig.parse(processEnvironment()).test.redisUrl
}

/** A queue prefix of its own for one test file, so files never see each other's jobs. */
export function uniquePrefix(label: string): string {
  return `test-${label.replace(/\W+/g, '-')}-${randomBytes(4).toString('hex')}`
}

/** Deletes every key under the prefix. */
export async function dropPrefix(url: string, prefix: string): Promise<void> {
  const client = new Redis(redisOptionsFromUrl(url))
  try {
    // In one script, so it is atomic as a Redis restart is: deleted key by key while workers run,
    // a job could lose its lock twice and fail as stalled, which no real loss of Redis does.
    await client.eval(
      `local keys = redis.call('KEYS', ARGV[1])
       for i = 1, #keys, 5000 do redis.call('DEL', unpack(keys, i, math.min(i + 4999, #keys))) end
       return #keys`,
      0,
      `${prefix}:*`,
    )
  } finally {
    client.disconnect()
  }
}

export { freePort } from '@rag/runtime'
export {
  SENTINEL_NAME,
  type SentinelCluster,
  startSentinelCluster,
} from './testing/redis-sentinel-cluster.ts'
