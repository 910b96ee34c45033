export { freePort } from './free-port.ts'
export { runMain } from './run-main.ts'
export { createShutdown, type Shutdown } from './shutdown.ts'
