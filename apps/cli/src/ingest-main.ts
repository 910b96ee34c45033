import { parseArgs } from 'node:util'
import { cliConfig, processEnvironment } from '@rag/config'
import { createGatewayClient } from '@rag/gateway-client'
import { runMain } from '@rag/runtime'
import { runIngestCommand } from './ingest-command.ts'

// pnpm ingest [--collection NAME] [--tags a,b] PATH...
runMain(async () => {
  const config = cliConfig.parse(processEnvironment())
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { collection: { type: 'string' }, tags: { type: 'string' } },
  })
  if (positionals.length === 0) {
    process.stderr.write('usage: pnpm ingest [--collection NAME] [--tags a,b] PATH...\n')
    process.exit(2)
  }
  const client = createGatewayClient({ baseUrl: config.client.gatewayUrl, apiKey: config.gateway.apiKeys[0] })
  process.exitCode = await runIngestCommand({
    paths: positionals,
    client,
    output: process.stdout,
    collection: values.collection,
    tags: values.tags
      ?.split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  })
})
