export { createShutdown, type Shutdown } from './shutdown.ts'
export { runMain } from './run-main.ts'
