import { describe, expect, it } from 'vitest'
import { createLineFormatter } from './log-lines.ts'

const line = JSON.stringify({
  level: 30,
  time: '2026-11-24T06:00:00.000Z',
  pid: 7,
  name: 'gateway',
  msg: 'listening',
})

describe('the supervisor output formats', () => {
  it('json: process lines pass unchanged and anything else becomes a JSON line, so log tools can read it all', () => {
    const format = createLineFormatter({ format: 'json', colorize: false, names: ['gateway'] })
    expect(format('gateway', line, 'stdout')).toBe(line)
    const wrapped = JSON.parse(format('worker-llm', 'Error: boom', 'stderr') ?? '') as Record<string, unknown>
    expect(wrapped).toMatchObject({ level: 50, name: 'worker-llm', msg: 'Error: boom' })
  })

  it('pretty: a readable line per record, prefixed with its process and aligned', () => {
    const format = createLineFormatter({
      format: 'pretty',
      colorize: false,
      names: ['gateway', 'worker-parse'],
    })
    expect(format('gateway', line, 'stdout')).toMatch(/^gateway {6}│ \[\d\d:\d\d:\d\d\] INFO: listening$/)
    expect(format('worker-parse', '  at parse (x.ts:1)', 'stderr')).toBe('worker-parse │   at parse (x.ts:1)')
    expect(format('gateway', line, 'stdout')).not.toContain('{')
  })

  it('pretty: leaves out what a person need not read at start and says a repeated warning once in full', () => {
    const format = createLineFormatter({ format: 'pretty', colorize: false, names: ['worker-embed'] })
    const record = (name: string, level: number, msg: string, fields = {}) =>
      JSON.stringify({ level, time: '2026-11-24T06:00:00.000Z', pid: 7, name, msg, ...fields })
    expect(format('gateway', '[supervisor] started, pid 4242', 'stdout')).toBeUndefined()
    expect(
      format('worker-embed', record('worker-embed', 30, 'worker ready', { queue: 'ingest.embed' }), 'stdout'),
    ).toBeUndefined()
    // A restart is news: still said.
    expect(format('worker-embed', '[supervisor] exited (code 1); restarting in 500 ms', 'stdout')).toMatch(
      /restarting/,
    )

    const unavailable =
      'EMBEDDING_MODEL Xenova/multilingual-e5-small is unavailable, so this process continues without it: cannot reach huggingface.co. To fix: run `pnpm rag models pull`'
    const first = format(
      'worker-embed',
      record('worker-embed', 40, unavailable, { retryInMs: 60000 }),
      'stdout',
    )
    expect(first).toContain('To fix: run `pnpm rag models pull`')
    const again = format('gateway', record('gateway', 40, unavailable, { retryInMs: 60000 }), 'stdout')
    expect(again).toMatch(
      /^gateway +│ \[\d\d:\d\d:\d\d\] WARN: EMBEDDING_MODEL Xenova\/multilingual-e5-small is unavailable, so this process continues without it \(as worker-embed said above\)$/,
    )
    // In JSON (a log file, a pipe) every line stays.
    const json = createLineFormatter({ format: 'json', colorize: false, names: [] })
    expect(json('gateway', '[supervisor] started, pid 4242', 'stdout')).toContain('started, pid 4242')
    expect(json('gateway', record('gateway', 40, unavailable), 'stdout')).toContain('To fix')
  })
})
