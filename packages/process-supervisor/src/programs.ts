import { fileURLToPath } from 'node:url'
import type { ProgramSpec } from './process-supervisor.ts'

const APPS_DIR = fileURLToPath(new URL('../../../apps/', import.meta.url))

/** Every process of the platform; each worker consumes one queue and can be scaled on its own. */
export const PROGRAM_NAMES = [
  'gateway',
  'worker-parse',
  'worker-chunk',
  'worker-embed',
  'worker-store',
  'worker-retrieve',
  'worker-rerank',
  'worker-llm',
  'watcher',
] as const

/** Runs each app's main.ts under tsx's loader, in a Node process of its own. */
export function platformPrograms(names: readonly string[] = PROGRAM_NAMES): ProgramSpec[] {
  const tsxLoader = import.meta.resolve('tsx')
  return names.map((name) => ({
    name,
    command: process.execPath,
    args: ['--import', tsxLoader, `${APPS_DIR}${name}/src/main.ts`],
  }))
}
