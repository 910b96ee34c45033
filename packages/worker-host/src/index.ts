export { runWorkerProcess, type WorkerDeps, type WorkerProcessOptions } from './run-worker-process.ts'
