import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { SEARCH_MODES } from '@rag/api-contract/enums'
import { collectFiles, type GatewayClient } from '@rag/gateway-client'
import { z } from 'zod'

type ToolResult = { content: { type: 'text'; text: string }[]; isError?: boolean }

const text = (value: unknown): ToolResult => ({
  content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value, null, 2) }],
})

/** A failing call is an MCP tool error with the reason, never a crash of the server. */
async function guarded(run: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await run()
  } catch (error) {
    return {
      content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }],
      isError: true,
    }
  }
}

const waitFor = async <T>(
  poll: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
): Promise<T> => {
  const deadline = Date.now() + timeoutMs
  for (let wait = 100; ; wait = Math.min(wait * 1.5, 1000)) {
    const value = await poll()
    if (done(value) || Date.now() > deadline) return value
    await new Promise((resolve) => setTimeout(resolve, wait))
  }
}

/** The platform's tools for agents, each a call to the gateway's HTTP API. */
export function createMcpServer(client: GatewayClient, { answerTimeoutMs = 300_000 } = {}): McpServer {
  const server = new McpServer({ name: 'rag-platform', version: '0.0.0' })

  server.registerTool(
    'search',
    {
      description:
        'Search the indexed documents; returns ranked passages with their source ids (file.pdf:p3, file.csv:r12).',
      inputSchema: {
        query: z.string().min(1).max(2000),
        top_k: z.number().int().min(1).max(50).optional(),
        mode: z.enum(SEARCH_MODES).optional(),
      },
    },
    ({ query, top_k, mode }) =>
      guarded(async () => {
        const { hits, degraded } = await client.search(query, { k: top_k, mode })
        return text({
          hits: hits.map(({ rank, sourceId, title, score, text }) => ({
            rank,
            sourceId,
            title,
            score,
            text,
          })),
          degraded,
        })
      }),
  )

  server.registerTool(
    'ask',
    {
      description:
        'Answer a question from the documents only, with cited sources; refuses when they hold no answer.',
      inputSchema: {
        question: z.string().min(1).max(2000),
        options: z
          .object({
            topK: z.number().int().min(1).max(20).optional(),
            mode: z.enum(SEARCH_MODES).optional(),
            fusion: z.boolean().optional(),
            rerank: z.boolean().optional(),
            answer: z.enum(['generate', 'extractive', 'none']).optional(),
            collection: z.string().optional(),
          })
          .optional(),
      },
    },
    ({ question, options }) =>
      guarded(async () => {
        const { id } = await client.ask(question, options ?? {})
        const result = await waitFor(
          () => client.getAnswer(id),
          (answer) => answer.status === 'done' || answer.status === 'failed',
          answerTimeoutMs,
        )
        if (result.status === 'failed') throw new Error(`the question failed: ${result.error}`)
        if (result.status !== 'done')
          throw new Error(`no answer after ${answerTimeoutMs / 1000} s (question ${id} is ${result.status})`)
        return text({
          answer: result.answer,
          refused: result.refused,
          sources: result.sources.map(({ rank, sourceId, score }) => ({ rank, sourceId, score })),
          degraded: result.degraded,
        })
      }),
  )

  server.registerTool(
    'list_documents',
    {
      description: 'List the indexed documents with their status.',
      inputSchema: { collection: z.string().optional() },
    },
    ({ collection }) =>
      guarded(async () =>
        text(
          (await client.listDocuments({ collection })).map(({ id, filename, status, chunkCount, error }) => ({
            id,
            filename,
            status,
            chunkCount,
            error,
          })),
        ),
      ),
  )

  server.registerTool(
    'get_document',
    {
      description: 'The text of a document by page, row or section, each with its source id.',
      inputSchema: { id: z.string().min(1) },
    },
    ({ id }) => guarded(async () => text(await client.documentSections(id))),
  )

  server.registerTool(
    'ingest_path',
    {
      description:
        'Ingest a local file or folder (recursively) and wait until every document is ready or failed.',
      inputSchema: { path: z.string().min(1), collection: z.string().optional() },
    },
    ({ path, collection }) =>
      guarded(async () => {
        const { files, skipped } = await collectFiles([path])
        if (files.length === 0)
          throw new Error(
            skipped[0] ? `${skipped[0].path}: ${skipped[0].reason}` : `${path}: nothing to ingest`,
          )
        const results = []
        for (const file of files) {
          try {
            const uploaded = await client.upload(file.path, { collection, name: file.name })
            const final = await waitFor(
              () => client.getDocument(uploaded.id),
              (d) => d.status === 'ready' || d.status === 'failed',
              answerTimeoutMs,
            )
            results.push({
              file: file.name,
              id: final.id,
              status: final.status,
              chunks: final.chunkCount,
              error: final.error,
            })
          } catch (error) {
            results.push({
              file: file.name,
              status: 'rejected',
              error: error instanceof Error ? error.message : String(error),
            })
          }
        }
        return text({ documents: results, skipped })
      }),
  )
  return server
}
