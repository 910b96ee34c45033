export { createTestGateway, keywordOnlySearch, type TestGateway } from './test-gateway.ts'
export { type StreamEvent, serverSentEvents } from './testing/server-sent-events.ts'
export { type GatewayServer, startGatewayServer } from './testing-server.ts'
