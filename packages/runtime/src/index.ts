export { freePort } from './free-port.ts'
export { createModelProvider, type ModelProvider, type ModelState } from './model-provider.ts'
export { runMain } from './run-main.ts'
export { createShutdown, type Shutdown } from './shutdown.ts'
