import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { PLATFORM_VERSION } from '@rag/api-contract'
import type { GatewayClient } from '@rag/gateway-client'
import { registerAskTool, registerChatTool } from './ask-tool.ts'
import { registerDocumentTools } from './document-tools.ts'
import { registerFeedbackTool } from './feedback-tool.ts'
import { registerIngestTool } from './ingest-tool.ts'
import { registerSearchTool } from './search-tool.ts'

export interface McpServerOptions {
  /** How long ask and ingest_path wait (progress is sent meanwhile). */
  answerTimeoutMs?: number
  /** ingest_path reads files where the server runs: for a local (stdio) client only. */
  localFiles?: boolean
}

/** The platform for agents: tools and resources, each a call to the gateway's HTTP API. */
export function createMcpServer(
  client: GatewayClient,
  { answerTimeoutMs = 300_000, localFiles = false }: McpServerOptions = {},
): McpServer {
  const server = new McpServer(
    { name: 'rag-platform', version: PLATFORM_VERSION },
    {
      instructions:
        'Answers come from the indexed documents only. Use search for passages, ask for a cited answer (it refuses when the documents hold no answer), chat for a conversation whose follow-ups lean on earlier turns, list_documents and get_document (or the rag://documents/{id} resources) to read what is indexed, give_feedback to say an answer was wrong (or right).',
    },
  )
  registerSearchTool(server, client)
  registerAskTool(server, client, answerTimeoutMs)
  registerChatTool(server, client, answerTimeoutMs)
  registerDocumentTools(server, client)
  registerFeedbackTool(server, client)
  if (localFiles) registerIngestTool(server, client, answerTimeoutMs)
  return server
}
