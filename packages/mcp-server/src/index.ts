export { createMcpServer, type McpServerOptions } from './create-mcp-server.ts'
export { handleMcpRequest } from './mcp-http.ts'
