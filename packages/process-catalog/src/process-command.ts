import { fileURLToPath } from 'node:url'
import { PROCESS_NAMES, PROCESSES, type ProcessName, WORKER_PROCESS_NAMES } from './processes.ts'

const REPOSITORY_ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/** How to start a process of the catalog: its entry file under tsx's loader, in a Node process of its own. */
export interface ProcessCommand {
  name: ProcessName
  command: string
  args: string[]
  env?: Record<string, string>
}

/**
 * Each worker's metrics port on one host: the first at `base`, the next workers on the ports after
 * it, in the catalog's order (a port can be listened on once; the gateway serves its own /metrics).
 */
export function workerMetricsPorts(base: number): Map<ProcessName, number> {
  if (base <= 0) return new Map()
  return new Map(WORKER_PROCESS_NAMES.map((name, index) => [name, base + index]))
}

export function processCommands(
  names: readonly ProcessName[] = PROCESS_NAMES,
  { metricsPort = 0 }: { metricsPort?: number } = {},
): ProcessCommand[] {
  const tsxLoader = import.meta.resolve('tsx')
  const ports = workerMetricsPorts(metricsPort)
  return names.map((name) => {
    const port = ports.get(name)
    return {
      name,
      command: process.execPath,
      args: ['--import', tsxLoader, `${REPOSITORY_ROOT}${PROCESSES[name].entry}`],
      // Every process would otherwise read the one METRICS_PORT and all but the first fail to listen.
      env: { METRICS_PORT: String(port ?? 0) },
    }
  })
}
