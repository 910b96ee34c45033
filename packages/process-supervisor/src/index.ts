export { AlreadyRunningError, claimDataDir } from './instance-lock.ts'
export { isAlive } from './is-alive.ts'
export { ProcessSupervisor, type ProgramSpec } from './process-supervisor.ts'
