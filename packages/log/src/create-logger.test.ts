import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { createLogger } from './create-logger.ts'
import { withLogContext } from './log-context.ts'

function capture() {
  const lines: Record<string, unknown>[] = []
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)))
      done()
    },
  })
  return { lines, destination }
}

describe('createLogger', () => {
  it('stamps the job id on every line written inside a job, across awaits', async () => {
    const { lines, destination } = capture()
    const logger = createLogger({ name: 'worker-parse', destination })
    await withLogContext({ jobId: 'doc-1:parse', queue: 'ingest.parse' }, async () => {
      logger.info('started')
      await Promise.resolve()
      logger.info('finished')
    })
    logger.info('idle')
    await new Promise<void>((resolve) => destination.end(resolve))
    expect(lines.map((l) => [l.msg, l.jobId, l.name])).toEqual([
      ['started', 'doc-1:parse', 'worker-parse'],
      ['finished', 'doc-1:parse', 'worker-parse'],
      ['idle', undefined, 'worker-parse'],
    ])
  })

  it('keeps concurrent requests apart', async () => {
    const { lines, destination } = capture()
    const logger = createLogger({ name: 'gateway', destination })
    await Promise.all(
      ['a', 'b'].map((reqId) =>
        withLogContext({ reqId }, async () => {
          await new Promise((resolve) => setImmediate(resolve))
          logger.info(`request ${reqId}`)
        }),
      ),
    )
    await new Promise<void>((resolve) => destination.end(resolve))
    expect(lines.map((l) => `${l.msg}:${l.reqId}`).sort()).toEqual(['request a:a', 'request b:b'])
  })
})
