export { killWorker } from './kill-worker.ts'
