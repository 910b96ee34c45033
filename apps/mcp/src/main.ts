import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { cliConfig, processEnvironment } from '@rag/config'
import { createGatewayClient } from '@rag/gateway-client'
import { createMcpServer } from '@rag/mcp-server'
import { runMain } from '@rag/runtime'

// An MCP client starts this over stdio; stdout carries the protocol, so nothing else is printed there.
// Local, so ingest_path (files of this machine) is offered; the gateway's /mcp does not offer it.
runMain(async () => {
  const config = cliConfig.parse(processEnvironment())
  const client = createGatewayClient({ baseUrl: config.client.gatewayUrl, apiKey: config.gateway.apiKeys[0] })
  await createMcpServer(client, { localFiles: true }).connect(new StdioServerTransport())
})
