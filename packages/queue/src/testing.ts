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
    let cursor = '0'
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000)
      if (keys.length > 0) await client.del(...keys)
      cursor = next
    } while (cursor !== '0')
  } finally {
    client.disconnect()
  }
}

export { freePort } from '@rag/runtime'
