export { killWorker } from './kill-worker.ts'
export { canCreateNetworks, createTestNetwork, type TestNetwork } from './test-network.ts'
