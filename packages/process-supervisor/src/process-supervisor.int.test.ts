import { PassThrough } from 'node:stream'
import { processEnvironment } from '@rag/config'
import { afterEach, describe, expect, it } from 'vitest'
import { isAlive } from './is-alive.ts'
import { ProcessSupervisor } from './process-supervisor.ts'
import { killWorker } from './testing/kill-worker.ts'

// Real child processes: tiny Node programs that print and idle until signalled.
const idle = (name: string) => ({
  name,
  command: process.execPath,
  args: ['-e', `console.log('hello from ${name}'); setInterval(() => {}, 1000)`],
})

let supervisor: ProcessSupervisor | undefined
afterEach(async () => {
  await supervisor?.stop(2000)
})

function collect(stream: PassThrough) {
  const lines: string[] = []
  stream.on('data', (chunk) => lines.push(...String(chunk).split('\n').filter(Boolean)))
  return lines
}

describe('ProcessSupervisor', () => {
  it('prefixes every line with the program name', async () => {
    const output = new PassThrough()
    const lines = collect(output)
    supervisor = new ProcessSupervisor({
      programs: [idle('gateway'), idle('worker-parse')],
      env: processEnvironment(),
      output,
    })
    supervisor.start()
    await expect.poll(() => lines.filter((line) => line.includes('hello')).length).toBe(2)
    expect(lines).toContain('gateway      | hello from gateway')
    expect(lines).toContain('worker-parse | hello from worker-parse')
  })

  it('restarts a worker killed with SIGKILL, and only that one', async () => {
    const output = new PassThrough()
    collect(output)
    supervisor = new ProcessSupervisor({
      programs: [idle('gateway'), idle('worker-embed')],
      env: processEnvironment(),
      output,
      restartDelayMs: 50,
    })
    const restarted = new Promise((resolve) => supervisor?.once('restart', resolve))
    supervisor.start()
    const gatewayPid = supervisor.pid('gateway')
    const victim = killWorker(supervisor, 'worker-embed')
    expect(await restarted).toEqual({ name: 'worker-embed', delayMs: 50 })
    await expect.poll(() => supervisor?.pid('worker-embed')).not.toBe(victim)
    expect(supervisor.pid('worker-embed')).toBeDefined()
    expect(supervisor.pid('gateway')).toBe(gatewayPid)
  })

  it('backs off when a program keeps crashing', async () => {
    const output = new PassThrough()
    collect(output)
    const crasher = { name: 'crasher', command: process.execPath, args: ['-e', 'process.exit(3)'] }
    supervisor = new ProcessSupervisor({
      programs: [crasher],
      env: processEnvironment(),
      output,
      restartDelayMs: 20,
    })
    const delays: number[] = []
    supervisor.on('restart', ({ delayMs }) => delays.push(delayMs))
    supervisor.start()
    await expect.poll(() => delays.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(3)
    expect(delays.slice(0, 3)).toEqual([20, 40, 80])
  })

  it('backs off a program that crashes while starting, however long its start takes', async () => {
    const output = new PassThrough()
    collect(output)
    // A slow start (a loaded machine, tsx compiling) that ends in a bad setting: never up.
    const slowCrasher = {
      name: 'slow-crasher',
      command: process.execPath,
      args: ['-e', 'setTimeout(() => process.exit(1), 150)'],
    }
    // Up (it says so), then crashing long after: each crash starts again from the first delay.
    const upThenCrashing = {
      name: 'up-then-crashing',
      command: process.execPath,
      args: ['-e', "process.send({ type: 'ready' }); setTimeout(() => process.exit(1), 500)"],
    }
    supervisor = new ProcessSupervisor({
      programs: [slowCrasher, upThenCrashing],
      env: processEnvironment(),
      output,
      restartDelayMs: 20,
      stableAfterMs: 50,
    })
    const delays: Record<string, number[]> = { 'slow-crasher': [], 'up-then-crashing': [] }
    supervisor.on('restart', ({ name, delayMs }) => delays[name]?.push(delayMs))
    supervisor.start()
    await expect
      .poll(() => Math.min(...Object.values(delays).map((list) => list.length)), { timeout: 60_000 })
      .toBeGreaterThanOrEqual(3)
    expect(delays['slow-crasher']?.slice(0, 3)).toEqual([20, 40, 80])
    expect(delays['up-then-crashing']?.slice(0, 3)).toEqual([20, 20, 20])
  })

  it('stops every child on stop() and restarts none', async () => {
    const output = new PassThrough()
    collect(output)
    supervisor = new ProcessSupervisor({
      programs: [idle('a'), idle('b')],
      env: processEnvironment(),
      output,
    })
    let restarts = 0
    supervisor.on('restart', () => restarts++)
    supervisor.start()
    const pids = [supervisor.pid('a'), supervisor.pid('b')].map((pid) => pid ?? 0)
    await supervisor.stop(2000)
    expect(pids.map(isAlive)).toEqual([false, false])
    expect(restarts).toBe(0)
  })
})
