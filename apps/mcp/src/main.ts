import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { cliConfig, processEnvironment } from '@rag/config'
import { createGatewayClient } from '@rag/gateway-client'
import { runMain } from '@rag/runtime'
import { createMcpServer } from './mcp-server.ts'

// An MCP client starts this over stdio; stdout carries the protocol, so nothing else is printed there.
runMain(async () => {
  const config = cliConfig.parse(processEnvironment())
  const client = createGatewayClient({ baseUrl: config.client.gatewayUrl, apiKey: config.gateway.apiKeys[0] })
  await createMcpServer(client).connect(new StdioServerTransport())
})
