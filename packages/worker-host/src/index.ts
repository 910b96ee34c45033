export { startModelHeartbeat } from './model-heartbeat.ts'
export { runWorkerProcess, type WorkerDeps, type WorkerProcessOptions } from './run-worker-process.ts'
export { timedProvider } from './timed-provider.ts'
