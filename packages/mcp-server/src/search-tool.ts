import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { MAX_SEARCH_K, SEARCH_MODES, searchQuerySchema } from '@rag/api-contract'
import type { GatewayClient } from '@rag/gateway-client'
import { z } from 'zod'
import { guarded, structured } from './tool-result.ts'

export const passageShape = {
  rank: z.number().describe('1 = the best match'),
  sourceId: z
    .string()
    .describe(
      'What to cite: guide.pdf:p3 (page), faq.csv:r12 (row), book.xlsx:Sheet1!r4 (sheet row), deck.pptx:s2 (slide), notes.txt:L40 (line), guide.md#setup (section)',
    ),
  documentId: z.string().describe('The document it is from (get_document reads the whole of it)'),
  title: z.string().describe('The document file name'),
  collection: z
    .string()
    .nullable()
    .describe("The document's collection (the same file in two collections is two documents)"),
  heading: z.string().nullable().describe('The section heading, when there is one'),
  score: z.number().describe('Relevance score (higher is better; comparable within one result)'),
  text: z.string().describe('The passage'),
}

const passage = z.object(passageShape)
/** What an agent gets of a passage (a search hit or an answer's source): passageShape's fields, the rest left out. */
export const toPassage = (value: z.input<typeof passage>) => passage.parse(value)

export function registerSearchTool(server: McpServer, client: GatewayClient) {
  server.registerTool(
    'search',
    {
      title: 'Search documents',
      description:
        'Search the indexed documents and return ranked passages with their source ids (file.pdf:p3, file.csv:r12). Writes no answer; use ask for that.',
      inputSchema: {
        query: searchQuerySchema.shape.q.describe('What to look for, in Japanese or English'),
        top_k: z
          .number()
          .int()
          .min(1)
          .max(MAX_SEARCH_K)
          .optional()
          .describe('How many passages (default 10)'),
        mode: z
          .enum(SEARCH_MODES)
          .optional()
          .describe('hybrid (default: keywords and meaning), keyword (BM25) or vector (meaning only)'),
        collection: searchQuerySchema.shape.collection.describe("Only this collection's documents"),
      },
      outputSchema: {
        hits: z.array(z.object(passageShape)).describe('Best first'),
        degraded: z
          .array(z.string())
          .describe('Retrievers that could not run (e.g. vector without an embedding model)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ query, top_k, mode, collection }) =>
      guarded(async () => {
        const { hits, degraded } = await client.search(query, { k: top_k, mode, collection })
        return structured({
          hits: hits.map(toPassage),
          degraded,
        })
      }),
  )
}
