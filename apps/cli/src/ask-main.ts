import { parseArgs } from 'node:util'
import { cliConfig, processEnvironment } from '@rag/config'
import { createGatewayClient } from '@rag/gateway-client'
import { runMain } from '@rag/runtime'
import { runAskCommand } from './ask-command.ts'

const USAGE = `usage: pnpm ask [options] "question"
  --mode hybrid|keyword|vector   retrieval (default hybrid)
  --top-k N                      passages the answer is built from
  --fusion                       RAG-Fusion: the LLM rephrases, every phrasing is searched
  --rerank | --no-rerank         cross-encoder reranking (default: on when a reranker is configured)
  --answer generate|extractive|none
  --collection NAME              only this collection's documents
  --no-parents                   hand the LLM the matched chunks, not their sections
  --json                         print the whole result as JSON
`

// pnpm ask [flags] "質問": flags mirror the options of POST /ask.
runMain(async () => {
  const config = cliConfig.parse(processEnvironment())
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      mode: { type: 'string' },
      'top-k': { type: 'string' },
      fusion: { type: 'boolean' },
      rerank: { type: 'boolean' },
      'no-rerank': { type: 'boolean' },
      answer: { type: 'string' },
      collection: { type: 'string' },
      'no-parents': { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  })
  const question = positionals.join(' ').trim()
  if (values.help || question === '') {
    process.stderr.write(USAGE)
    process.exit(values.help ? 0 : 2)
  }
  const options: Record<string, unknown> = {}
  if (values.mode) options.mode = values.mode
  if (values['top-k']) options.topK = Number(values['top-k'])
  if (values.fusion) options.fusion = true
  if (values.rerank) options.rerank = true
  if (values['no-rerank']) options.rerank = false
  if (values.answer) options.answer = values.answer
  if (values.collection) options.collection = values.collection
  if (values['no-parents']) options.parents = false
  const client = createGatewayClient({ baseUrl: config.client.gatewayUrl, apiKey: config.gateway.apiKeys[0] })
  process.exitCode = await runAskCommand({
    question,
    options,
    client,
    output: process.stdout,
    progress: process.stderr,
    json: values.json,
  })
})
