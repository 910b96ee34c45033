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
    const wrapped = JSON.parse(format('worker-llm', 'Error: boom', 'stderr')) as Record<string, unknown>
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
})
