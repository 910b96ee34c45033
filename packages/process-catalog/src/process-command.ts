import { fileURLToPath } from 'node:url'
import { freshBundle } from '@rag/runtime'
import { PROCESS_NAMES, PROCESSES, type ProcessName, WORKER_PROCESS_NAMES } from './processes.ts'

const REPOSITORY_ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/** The bundle of an entry (apps/worker/src/main.ts → apps/worker/dist/main.mjs). */
export const bundleOf = (entry: string) => entry.replace(/\/src\/main\.ts$/, '/dist/main.mjs')

/**
 * How to start a process of the catalog, in a Node process of its own: the bundle its app's build
 * made (about 1.5 s of CPU at start instead of 5) while it is current, else its entry under tsx.
 * `pnpm start` and `pnpm test` build first; a change to the code after a build runs from source.
 */
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

/** The arguments that start an entry (a path from the repository's root): its bundle while that is current (freshBundle), else its source under tsx. */
export function entryArgs(entry: string): string[] {
  const bundle = `${REPOSITORY_ROOT}${bundleOf(entry)}`
  return freshBundle(bundle)
    ? ['--enable-source-maps', bundle]
    : ['--import', import.meta.resolve('tsx'), `${REPOSITORY_ROOT}${entry}`]
}

/** What a process of the catalog is given after its entry: a worker, its own name (the worker app runs any). */
export const processArguments = (name: ProcessName): string[] => ('step' in PROCESSES[name] ? [name] : [])

export function processCommands(
  names: readonly ProcessName[] = PROCESS_NAMES,
  { metricsPort = 0 }: { metricsPort?: number } = {},
): ProcessCommand[] {
  const ports = workerMetricsPorts(metricsPort)
  return names.map((name) => ({
    name,
    command: process.execPath,
    args: [...entryArgs(PROCESSES[name].entry), ...processArguments(name)],
    // Every process would otherwise read the one METRICS_PORT and all but the first fail to listen.
    env: { METRICS_PORT: String(ports.get(name) ?? 0) },
  }))
}
