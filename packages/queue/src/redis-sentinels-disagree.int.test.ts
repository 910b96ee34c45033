import { Writable } from 'node:stream'
import { formatSentinelUrl } from '@rag/config'
import { createLogger } from '@rag/log'
import { freePort } from '@rag/runtime'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseJob } from './jobs.ts'
import { createProducer, type Producer } from './producer.ts'
import { checkSentinels } from './sentinel-agreement.ts'
import { startWorker } from './start-worker.ts'
import {
  SENTINEL_NAME,
  type SentinelCluster,
  startSentinelCluster,
} from './testing/redis-sentinel-cluster.ts'
import { uniquePrefix } from './testing.ts'

// Sentinels that disagree: one more sentinel names the replica as the primary (a stale or wrong
// configuration) and is listed first; the next address listed has no sentinel at all. The gateway
// says so at start; the platform's connections still write to the real primary only.
let cluster: SentinelCluster
let url: string
let dissenting: string
let nobody: string
const logger = createLogger({
  name: 'test',
  level: 'silent',
  destination: new Writable({ write: (_c, _e, d) => d() }),
})

beforeAll(async () => {
  cluster = await startSentinelCluster()
  const [primary, replica] = cluster.ports.servers
  expect(await cluster.primaryPort()).toBe(primary)
  dissenting = await cluster.startDissentingSentinel(replica)
  nobody = `127.0.0.1:${await freePort()}`
  url = formatSentinelUrl(
    [dissenting, nobody, ...cluster.ports.sentinels.map((port) => `127.0.0.1:${port}`)],
    SENTINEL_NAME,
  )
})

afterAll(async () => {
  await cluster?.close()
})

describe('Redis sentinels that disagree', () => {
  it('are named at start: the one that says the replica is the primary, and the one that does not answer', async () => {
    const [primary, replica] = cluster.ports.servers
    const problems = await checkSentinels(url)
    expect(problems).toHaveLength(2)
    expect(problems[0]?.message).toContain(`${nobody}: `)
    expect(problems[0]?.message).toMatch(/1 of 5 Redis sentinels give no primary/)
    expect(problems[1]?.message).toContain(`${dissenting} says 127.0.0.1:${replica}`)
    expect(problems[1]?.message).toContain(`says 127.0.0.1:${primary}`)
    // The three that agree, alone: nothing to say.
    const agreeing = formatSentinelUrl(
      cluster.ports.sentinels.map((port) => `127.0.0.1:${port}`),
      SENTINEL_NAME,
    )
    expect(await checkSentinels(agreeing)).toEqual([])
  })

  it('do not lead a job to the replica: queued, run and finished on the real primary', async () => {
    const [primary, replica] = cluster.ports.servers
    const prefix = uniquePrefix('dissent')
    let producer: Producer | undefined
    const done: string[] = []
    const worker = startWorker({
      definition: parseJob,
      redisUrl: url,
      prefix,
      logger,
      handler: async (payload) => {
        done.push(payload.documentId)
      },
    })
    try {
      producer = await createProducer({ url, prefix })
      const ids = Array.from(
        { length: 20 },
        (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      )
      for (const documentId of ids)
        await producer.enqueue(parseJob, { documentId, contentHash: 'ab'.repeat(16) })
      await expect.poll(() => done.length, { timeout: 60_000, interval: 50 }).toBe(ids.length)
      // The jobs live on the primary (and, copied, on the replica); the replica took no write of its own.
      const direct = (port: number) => new Redis({ port, host: '127.0.0.1', lazyConnect: true })
      const onPrimary = direct(primary)
      const onReplica = direct(replica)
      try {
        const completed = await onPrimary.zcard(`${prefix}:${parseJob.name}:completed`)
        expect(completed).toBe(ids.length)
        const role = (await onReplica.call('ROLE')) as [string, ...unknown[]]
        expect(role[0]).toBe('slave')
      } finally {
        onPrimary.disconnect()
        onReplica.disconnect()
      }
    } finally {
      await worker.close()
      await producer?.close()
    }
  })
})
