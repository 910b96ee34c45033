export { createTestGateway, keywordOnlySearch, type TestGateway } from './test-gateway.ts'
export { type GatewayServer, startGatewayServer } from './testing-server.ts'
