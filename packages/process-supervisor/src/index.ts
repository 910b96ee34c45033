export {
  AlreadyRunningError,
  claimDataDir,
  type DataDirClaim,
  type PlatformAddresses,
} from './instance-lock.ts'
export { isAlive } from './is-alive.ts'
export { ProcessSupervisor, type ProgramSpec } from './process-supervisor.ts'
export { readRunningPlatform, withRunningPlatform } from './running-platform.ts'
