import { spawn } from 'node:child_process'
import { Writable } from 'node:stream'
import { createLogger } from '@rag/log'
import type { Job, Worker } from 'bullmq'
import { QueueEvents } from 'bullmq'
import { afterAll, describe, expect, it } from 'vitest'
import { parseJob } from './jobs.ts'
import { createProducer } from './producer.ts'
import { RedisUnavailableError, redisConnectionOptions, waitForRedis } from './redis-connection.ts'
import { startWorker, UnrecoverableError } from './start-worker.ts'
import { dropPrefix, freePort, testRedisUrl, uniquePrefix } from './testing.ts'

const url = testRedisUrl()
const prefix = uniquePrefix('queue')
const logger = createLogger({
  name: 'test',
  level: 'silent',
  destination: new Writable({ write: (_c, _e, d) => d() }),
})
const doc = (n: number) => ({
  documentId: `00000000-0000-4000-8000-00000000000${n}`,
  contentHash: 'ab'.repeat(16),
})
const closers: (() => Promise<unknown>)[] = []

afterAll(async () => {
  for (const close of closers.reverse()) await close()
  await dropPrefix(url, prefix)
})

function track<T extends { close(): Promise<unknown> }>(thing: T): T {
  closers.push(() => thing.close())
  return thing
}

async function waitFor(job: Job | undefined, events: QueueEvents) {
  if (!job) throw new Error('no job')
  return job.waitUntilFinished(events, 60_000)
}

describe('queues against a real Redis', () => {
  it('runs a job once however often it is enqueued, with its id on every log line', async () => {
    const producer = track(await createProducer({ url, prefix }))
    const events = track(
      new QueueEvents(parseJob.name, { connection: redisConnectionOptions(url, 'worker'), prefix }),
    )
    await events.waitUntilReady()
    const lines: Record<string, unknown>[] = []
    const capturing = createLogger({
      name: 'test',
      level: 'debug',
      destination: new Writable({
        write: (chunk, _encoding, done) => {
          lines.push(JSON.parse(String(chunk)) as Record<string, unknown>)
          done()
        },
      }),
    })
    const seen: string[] = []
    let release: () => void = () => undefined
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const worker: Worker = track(
      startWorker({
        definition: parseJob,
        redisUrl: url,
        prefix,
        logger: capturing,
        handler: async (payload, context) => {
          await gate
          seen.push(payload.documentId)
          // Code inside a handler logs without passing ids around.
          context.logger.info({ step: 'inside' }, 'parsing')
          return 'parsed'
        },
      }),
    )
    const ids = await Promise.all([1, 2, 3].map(() => producer.enqueue(parseJob, doc(1))))
    expect(new Set(ids).size).toBe(1)
    release()
    const queue = producer.queues.get(parseJob.name)
    expect(await waitFor(await queue?.getJob(ids[0] ?? ''), events)).toBe('parsed')
    expect(seen).toEqual([doc(1).documentId])
    const jobLines = lines.filter((line) => line.msg === 'job started' || line.step === 'inside')
    expect(jobLines).toHaveLength(2)
    for (const line of jobLines) expect(line).toMatchObject({ jobId: ids[0], queue: parseJob.name })
    await worker.close()
  })

  it('fails an unfixable job once and retries a transient failure with backoff', async () => {
    const producer = track(await createProducer({ url, prefix }))
    const events = track(
      new QueueEvents(parseJob.name, { connection: redisConnectionOptions(url, 'worker'), prefix }),
    )
    await events.waitUntilReady()
    let transientCalls = 0
    track(
      startWorker({
        definition: parseJob,
        redisUrl: url,
        prefix,
        logger,
        handler: async (payload) => {
          if (payload.documentId === doc(2).documentId) throw new UnrecoverableError('corrupt file')
          transientCalls += 1
          if (transientCalls < 3) throw new Error('database restarting')
          return 'ok'
        },
      }),
    )
    const queue = producer.queues.get(parseJob.name)
    const corruptId = await producer.enqueue(parseJob, doc(2))
    const flakyId = await producer.enqueue(parseJob, doc(3), { backoff: { type: 'exponential', delay: 10 } })
    await expect(waitFor(await queue?.getJob(corruptId), events)).rejects.toThrow('corrupt file')
    expect((await queue?.getJob(corruptId))?.attemptsMade).toBe(1)
    expect(await waitFor(await queue?.getJob(flakyId), events)).toBe('ok')
    expect(transientCalls).toBe(3)
  })

  it('rejects an invalid payload before it reaches Redis', async () => {
    const producer = track(await createProducer({ url, prefix }))
    await expect(producer.enqueue(parseJob, { documentId: 'not-a-uuid', contentHash: 'x' })).rejects.toThrow(
      /documentId/,
    )
  })
})

describe('when Redis is down', () => {
  it('a producer cannot be created, with an error that says how to get Redis', async () => {
    const deadUrl = `redis://127.0.0.1:${await freePort()}`
    const error = await createProducer({ url: deadUrl, prefix }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RedisUnavailableError)
    expect(String(error)).toMatch(
      /Redis at redis:\/\/127\.0\.0\.1:\d+ is not reachable .*docker compose up -d redis/,
    )
  })

  it('an enqueue fails fast when Redis goes away after start, and works again when it returns', async () => {
    const port = await freePort()
    const ownUrl = `redis://127.0.0.1:${port}`
    const startRedis = () =>
      spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' })
    const isUp = () =>
      waitForRedis(ownUrl, 300).then(
        () => true,
        () => false,
      )
    let redis = startRedis()
    await expect.poll(isUp, { timeout: 60_000 }).toBe(true)
    const producer = track(await createProducer({ url: ownUrl, prefix }))
    await producer.enqueue(parseJob, doc(6))
    const exited = new Promise((resolve) => redis.once('exit', resolve))
    redis.kill('SIGKILL')
    await exited
    // Rejected rather than held until Redis returns (this test's timeout guards a hang).
    await expect(producer.enqueue(parseJob, doc(7))).rejects.toThrow()
    redis = startRedis()
    closers.unshift(async () => redis.kill()) // last: whatever uses it closes first
    await expect.poll(isUp, { timeout: 60_000 }).toBe(true)
    await expect
      .poll(
        () =>
          producer.enqueue(parseJob, doc(7)).then(
            () => true,
            () => false,
          ),
        { timeout: 60_000 },
      )
      .toBe(true)
  })

  it('a worker waits for Redis and starts working when it comes up', async () => {
    const port = await freePort()
    const lateUrl = `redis://127.0.0.1:${port}`
    const done = new Promise<string>((resolve) => {
      track(
        startWorker({
          definition: parseJob,
          redisUrl: lateUrl,
          prefix,
          logger,
          handler: async (payload) => {
            resolve(payload.documentId)
          },
        }),
      )
    })
    const redis = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    })
    closers.unshift(async () => redis.kill()) // last: whatever uses it closes first
    await expect
      .poll(
        () =>
          waitForRedis(lateUrl, 500)
            .then(() => true)
            .catch(() => false),
        { timeout: 60_000 },
      )
      .toBe(true)
    const producer = track(await createProducer({ url: lateUrl, prefix }))
    await producer.enqueue(parseJob, doc(5))
    expect(await done).toBe(doc(5).documentId)
  })
})

describe('enqueueAgain', () => {
  it('runs a job again after it finished, and replaces an orphan left by a lost queue', async () => {
    // A prefix of its own: workers of the tests above still consume their queues.
    const prefix = uniquePrefix('queue-again')
    closers.unshift(() => dropPrefix(url, prefix))
    const producer = track(await createProducer({ url, prefix }))
    const queue = producer.queues.get(parseJob.name)
    const runs: string[] = []
    const worker = track(
      startWorker({
        definition: parseJob,
        redisUrl: url,
        prefix,
        logger,
        handler: async (payload) => {
          runs.push(payload.documentId)
        },
      }),
    )
    const id = await producer.enqueueAgain(parseJob, doc(8))
    await expect.poll(() => runs.length).toBe(1)
    await expect.poll(async () => (await queue?.getJob(id))?.finishedOn !== undefined).toBe(true)
    await producer.enqueue(parseJob, doc(8))
    await producer.enqueueAgain(parseJob, doc(8))
    await expect.poll(() => runs.length).toBe(2)
    // An orphan: the job's hash exists but it is in no list (Redis lost them while a worker wrote to it).
    await worker.close()
    await expect.poll(async () => (await queue?.getJob(id))?.finishedOn !== undefined).toBe(true)
    const client = producer.redis
    await client.zrem(`${prefix}:${parseJob.name}:completed`, id)
    expect(await (await queue?.getJob(id))?.getState()).toBe('unknown')
    await producer.enqueueAgain(parseJob, doc(8))
    expect(await (await queue?.getJob(id))?.getState()).toBe('waiting')
  })
})
