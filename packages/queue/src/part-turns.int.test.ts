import { Worker } from 'bullmq'
import { afterAll, expect, it } from 'vitest'
import { LOWEST_PRIORITY } from './job-definition.ts'
import { chunkJob, ocrJob } from './jobs.ts'
import { createProducer } from './producer.ts'
import { redisConnectionOptions } from './redis-connection.ts'
import { dropPrefix, testRedisUrl, uniquePrefix } from './testing.ts'

// Parts of documents are served in turns: what a worker takes next is the next part of every
// document, not the rest of the one that came first.
const url = testRedisUrl()
const prefix = uniquePrefix('part-turns')
afterAll(() => dropPrefix(url, prefix))

const doc = (n: number) => ({
  documentId: `00000000-0000-4000-8000-00000000000${n}`,
  contentHash: 'cd'.repeat(16),
})

it.each([ocrJob, chunkJob])(
  '$name: a 2-part document behind a 40-part one is taken after the big one’s current part',
  async (job) => {
    const producer = await createProducer({ url, prefix })
    try {
      for (let part = 0; part < 40; part++) await producer.enqueue(job, { ...doc(1), part })
      for (let part = 0; part < 2; part++) await producer.enqueue(job, { ...doc(2), part })
      // A worker takes them one at a time, as OCR_CONCURRENCY 1 does: the order it is handed them in.
      const taken: string[] = []
      let allTaken = () => {}
      const done = new Promise<void>((resolve) => {
        allTaken = resolve
      })
      const worker = new Worker(
        job.name,
        async (picked) => {
          taken.push(`${picked.data.documentId.slice(-1)}:${picked.data.part}`)
          if (taken.length === 42) allTaken()
        },
        { connection: redisConnectionOptions(url, 'worker'), prefix, concurrency: 1 },
      )
      await done
      await worker.close()
      expect(taken.slice(0, 4)).toEqual(['1:0', '2:0', '1:1', '2:1'])
      expect(taken.length).toBe(42)
    } finally {
      await producer.close()
    }
  },
)

it('takes a job at the lowest priority (batch answers wait there) and one at the highest', async () => {
  const producer = await createProducer({ url, prefix })
  try {
    // BullMQ refuses 2^21: a batch question's answer was once refused at the LLM's door.
    await producer.enqueue(chunkJob, { ...doc(3), part: 0 }, { priority: LOWEST_PRIORITY })
    await producer.enqueue(chunkJob, { ...doc(4), part: 0 }, { priority: 1 })
    const queue = producer.queues.get(chunkJob.name)
    const waiting = await queue?.getJobs(['prioritized'])
    expect(waiting?.map((job) => job.opts.priority).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
      expect.arrayContaining([1, LOWEST_PRIORITY]),
    )
  } finally {
    await producer.close()
  }
})
