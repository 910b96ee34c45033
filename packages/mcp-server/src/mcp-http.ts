import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import type { GatewayClient } from '@rag/gateway-client'
import { createMcpServer } from './create-mcp-server.ts'

/**
 * MCP over Streamable HTTP, stateless: each request gets a server and a transport of its own
 * (no session to keep or lose across gateway restarts), acting with the caller's gateway client
 * (its API key). Progress of a long call streams back on that request's event stream.
 */
export async function handleMcpRequest(request: Request, client: GatewayClient): Promise<Response> {
  const server = createMcpServer(client, { localFiles: false })
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined })
  await server.connect(transport)
  return transport.handleRequest(request)
}
