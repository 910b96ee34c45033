export { killWorker } from './kill-worker.ts'
export { stopSupervisor } from './stop-supervisor.ts'
export { canCreateNetworks, createTestNetwork, type TestNetwork } from './test-network.ts'
