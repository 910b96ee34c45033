import { Writable } from 'node:stream'
import { createLogger } from '@rag/log'
import { describe, expect, it } from 'vitest'
import { createShutdown } from './shutdown.ts'

const logger = createLogger({
  name: 'test',
  level: 'silent',
  destination: new Writable({ write: (_c, _e, d) => d() }),
})

describe('createShutdown', () => {
  it('runs every step in reverse order, even when one fails, and only once', async () => {
    const ran: string[] = []
    const shutdown = createShutdown({ logger })
    shutdown.add('pool', () => ran.push('pool'))
    shutdown.add('queue', () => {
      ran.push('queue')
      throw new Error('boom')
    })
    shutdown.add('worker', async () => ran.push('worker'))
    await Promise.all([shutdown.close('test'), shutdown.close('again')])
    expect(ran).toEqual(['worker', 'queue', 'pool'])
    expect(shutdown.closing).toBe(true)
  })
})
