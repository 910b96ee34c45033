import { describe, expect, it } from 'vitest'
import { processCommands, workerMetricsPorts } from './process-command.ts'
import { WORKER_PROCESS_NAMES } from './processes.ts'

describe('metrics ports of the processes pnpm start runs', () => {
  it('gives every worker a port of its own from METRICS_PORT on, and the others none', () => {
    const commands = processCommands(undefined, { metricsPort: 3464 })
    const ports = commands.map((command) => Number(command.env?.METRICS_PORT))
    const workers = commands.filter((command) => (WORKER_PROCESS_NAMES as string[]).includes(command.name))
    expect(new Set(workers.map((command) => command.env?.METRICS_PORT)).size).toBe(workers.length)
    expect(Math.min(...ports.filter((port) => port > 0))).toBe(3464)
    expect(commands.find((command) => command.name === 'gateway')?.env?.METRICS_PORT).toBe('0')
  })

  it('gives none when METRICS_PORT is 0', () => {
    expect(workerMetricsPorts(0).size).toBe(0)
    expect(processCommands(undefined).every((command) => command.env?.METRICS_PORT === '0')).toBe(true)
  })
})
