export { isAlive } from './is-alive.ts'
export { ProcessSupervisor, type ProgramSpec } from './process-supervisor.ts'
export { PROGRAM_NAMES, platformPrograms } from './programs.ts'
