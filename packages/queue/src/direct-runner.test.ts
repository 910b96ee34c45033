import { createLogger } from '@rag/log'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createDirectRunner } from './direct-runner.ts'
import type { FinalFailure } from './final-failure.ts'
import { defineJob } from './job-definition.ts'
import type { JobHandler } from './job-handler.ts'

const logger = createLogger({ name: 'direct-runner-test', level: 'silent' })
const payload = z.object({ n: z.number() })
const first = defineJob({ name: 'test.first', payload, jobId: (p) => `f${p.n}` })
const second = defineJob({ name: 'test.second', payload, jobId: (p) => `s${p.n}` })
const failed: [number, FinalFailure][] = []
/** A step of the tests' own: its handler, and a final-failure hook that records what it was told. */
const step = (job: typeof first, handler: JobHandler<typeof payload>) => ({
  job,
  handler: () => handler,
  onFinalFailure: () => async (p: { n: number }, failure: FinalFailure) => {
    failed.push([p.n, failure])
  },
})

describe('createDirectRunner', () => {
  it('runs the jobs handlers hand on, each queue at most `concurrency` at once, and idles after the last', async () => {
    const runner = createDirectRunner({ concurrency: 2, logger })
    let running = 0
    let peak = 0
    const done: number[] = []
    runner.register(
      step(first, async ({ n }) => {
        running += 1
        peak = Math.max(peak, running)
        await new Promise((resolve) => setImmediate(resolve))
        running -= 1
        await runner.producer.enqueue(second, { n })
      }),
      null,
    )
    runner.register(
      step(second, async ({ n }) => {
        done.push(n)
      }),
      null,
    )
    for (let n = 0; n < 6; n += 1) await runner.producer.enqueue(first, { n })
    await runner.idle()
    expect(done.sort()).toEqual([0, 1, 2, 3, 4, 5])
    expect(peak).toBe(2)
  })

  it('absorbs a duplicate id while the first is pending, fails a job once with its hook told, and refuses bad payloads', async () => {
    const runner = createDirectRunner({ concurrency: 1, logger })
    let runs = 0
    runner.register(
      step(first, async ({ n }, context) => {
        runs += 1
        expect(context).toMatchObject({ attempt: 1, lastAttempt: true, resumed: false, jobId: `f${n}` })
        if (n === 9) throw new Error('broken file')
      }),
      null,
    )
    await runner.producer.enqueue(first, { n: 1 })
    await runner.producer.enqueue(first, { n: 1 })
    await runner.producer.enqueue(first, { n: 9 })
    await expect(runner.producer.enqueue(first, { n: 'x' } as never)).rejects.toThrow()
    await expect(runner.producer.enqueue(second, { n: 1 })).rejects.toThrow(/no handler/)
    await runner.idle()
    expect(runs).toBe(2)
    expect(runner.failures.map(({ jobId, error }) => [jobId, error.message])).toEqual([['f9', 'broken file']])
    // The bench's baseline records a final failure as the workers do (it used to leave it unrecorded).
    expect(failed).toEqual([[9, { stalled: false, message: 'broken file' }]])
  })
})
