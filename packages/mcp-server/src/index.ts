export { createMcpServer, type McpServerOptions } from './create-mcp-server.ts'
export { createMcpHttpHandler } from './mcp-http.ts'
