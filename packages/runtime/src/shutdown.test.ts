import { createLogger } from '@rag/log'
import { describe, expect, it, vi } from 'vitest'
import { createShutdown } from './shutdown.ts'

describe('createShutdown', () => {
  it('takes one Ctrl-C that arrives twice (terminal and runner) as one, and a later one as "exit now"', async () => {
    const lines: { msg: string }[] = []
    const logger = createLogger({
      name: 'test',
      destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
    })
    const shutdown = createShutdown({ logger, timeoutMs: 60_000 })
    let closes = 0
    shutdown.add(
      'slow step',
      () => new Promise<void>((resolve) => setTimeout(() => resolve(void closes++), 1500)),
    )
    const exits: number[] = []
    const before = [...process.listeners('SIGINT'), ...process.listeners('SIGTERM')]
    shutdown.installSignalHandlers({ exit: (code) => exits.push(code) })
    try {
      process.emit('SIGINT')
      process.emit('SIGINT')
      await vi.waitFor(() => expect(exits).toEqual([0]), { timeout: 5000 })
      expect(closes).toBe(1)
      expect(lines.map((line) => line.msg)).not.toContain('second signal: exiting now')
    } finally {
      for (const listener of process.listeners('SIGINT'))
        if (!before.includes(listener)) process.off('SIGINT', listener)
      for (const listener of process.listeners('SIGTERM'))
        if (!before.includes(listener)) process.off('SIGTERM', listener)
    }
  })
})
