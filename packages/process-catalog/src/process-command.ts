import { fileURLToPath } from 'node:url'
import { PROCESS_NAMES, PROCESSES, type ProcessName } from './processes.ts'

const REPOSITORY_ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/** How to start a process of the catalog: its entry file under tsx's loader, in a Node process of its own. */
export interface ProcessCommand {
  name: ProcessName
  command: string
  args: string[]
}

export function processCommands(names: readonly ProcessName[] = PROCESS_NAMES): ProcessCommand[] {
  const tsxLoader = import.meta.resolve('tsx')
  return names.map((name) => ({
    name,
    command: process.execPath,
    args: ['--import', tsxLoader, `${REPOSITORY_ROOT}${PROCESSES[name].entry}`],
  }))
}
