import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { cliConfig, gatewayUrlOf, processEnvironment } from '@rag/config'
import { createGatewayClient } from '@rag/gateway-client'
import { createMcpServer } from '@rag/mcp-server'
import { runMain } from '@rag/runtime'

// An MCP client starts this over stdio; stdout carries the protocol, so nothing else is printed there.
// Local, so ingest_path (files of this machine) is offered; the gateway's /mcp does not offer it.
runMain(async () => {
  const environment = processEnvironment()
  // pnpm prints its banner on stdout before a script starts unless it runs with --silent: by then it
  // is in the protocol stream (clients report parse errors), so say how to start this server instead.
  if (environment.npm_lifecycle_event === 'mcp' && environment.npm_config_reporter !== 'silent')
    process.stderr.write(
      'rag mcp: pnpm wrote its "> rag-platform@ mcp" banner into the MCP stream before this server started; register the server as `pnpm --silent mcp` (see docs/clients.md)\n',
    )
  const config = cliConfig.parse(environment)
  const client = createGatewayClient({ baseUrl: gatewayUrlOf(config), apiKey: config.gateway.apiKeys[0] })
  await createMcpServer(client, { localFiles: true }).connect(new StdioServerTransport())
})
