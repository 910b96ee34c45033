import { createLogger } from '@rag/log'
import { describe, expect, it, vi } from 'vitest'
import { createShutdown } from './shutdown.ts'

describe('createShutdown', () => {
  it('takes one Ctrl-C that arrives twice (terminal and runner) as one: a clean shutdown, exit 0', async () => {
    const lines: { msg: string }[] = []
    const logger = createLogger({
      name: 'test',
      destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
    })
    const shutdown = createShutdown({ logger, timeoutMs: 60_000 })
    let closes = 0
    // A step that is still closing when the second signal arrives (released below).
    let release: () => void = () => undefined
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    shutdown.add('slow step', async () => {
      await released
      closes += 1
    })
    const exits: number[] = []
    const before = [...process.listeners('SIGINT'), ...process.listeners('SIGTERM')]
    shutdown.installSignalHandlers({ exit: (code) => exits.push(code) })
    try {
      process.emit('SIGINT')
      process.emit('SIGINT')
      expect(exits).toEqual([])
      release()
      await vi.waitFor(() => expect(exits).toEqual([0]), { timeout: 30_000 })
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
