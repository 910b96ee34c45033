import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js'
import { DOCUMENT_STATUSES } from '@rag/api-contract'
import { type GatewayClient, GatewayError } from '@rag/gateway-client'
import { z } from 'zod'
import { guarded, structured } from './tool-result.ts'

const documentShape = {
  id: z.string(),
  filename: z.string(),
  status: z.enum(DOCUMENT_STATUSES),
  chunkCount: z.number(),
  error: z.string().nullable().describe('Why it failed'),
}

/** Sections a resource read returns at most (a 100,000-row CSV would be tens of megabytes). */
const MAX_SECTIONS = 2000

/** The MCP specification's code for a resource that does not exist (the SDK has no name for it). */
const RESOURCE_NOT_FOUND = -32002

/**
 * The protocol's "resource not found", with its message as the client should show it: the SDK's
 * McpError puts "MCP error -32002: " into its message, which the client then adds again.
 */
class ResourceNotFound extends Error {
  readonly code = RESOURCE_NOT_FOUND
  constructor(
    message: string,
    readonly data: Record<string, unknown>,
  ) {
    super(message)
  }
}

/** A document's sections, or the protocol's "resource not found" when there is no such document. */
async function sectionsOf(client: GatewayClient, uri: URL, id: string, offset: number) {
  try {
    return await client.documentSections(id, { offset, limit: 500 })
  } catch (error) {
    if (error instanceof GatewayError && error.status === 404)
      throw new ResourceNotFound(`Resource not found: ${error.message}`, { uri: uri.href })
    throw error
  }
}

/** list_documents, get_document, and each document as a resource (rag://documents/{id}). */
export function registerDocumentTools(server: McpServer, client: GatewayClient) {
  server.registerTool(
    'list_documents',
    {
      title: 'List documents',
      description:
        'The indexed documents, newest first, with their status (ready, failed with the reason, or on the way).',
      inputSchema: { collection: z.string().optional().describe("Only this collection's documents") },
      outputSchema: { documents: z.array(z.object(documentShape)) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ collection }) =>
      guarded(async () =>
        structured({
          documents: (await client.listDocuments({ collection })).map(
            ({ id, filename, status, chunkCount, error }) => ({ id, filename, status, chunkCount, error }),
          ),
        }),
      ),
  )

  server.registerTool(
    'get_document',
    {
      title: 'Read a document',
      description:
        'The text of a document by page, row or section, each with its source id, a page of sections at a time.',
      inputSchema: {
        id: z.string().min(1).describe('The document id (from list_documents or a search hit)'),
        offset: z.number().int().min(0).optional().describe('First section (default 0)'),
        limit: z.number().int().min(1).max(1000).optional().describe('Sections (default 100)'),
      },
      outputSchema: {
        id: z.string(),
        filename: z.string(),
        total: z.number().describe('Sections in the document'),
        next: z
          .string()
          .nullable()
          .describe('More sections follow when not null (call again with a higher offset)'),
        sections: z.array(
          z.object({
            sourceId: z.string(),
            heading: z.string().nullable(),
            text: z.string(),
            ocr: z.boolean().describe('Read by OCR from a picture of the text: may hold misreadings'),
          }),
        ),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ id, offset, limit }) =>
      guarded(async () => {
        const page = await client.documentSections(id, { offset, limit })
        return structured({
          id: page.id,
          filename: page.filename,
          total: page.total,
          next: page.next,
          sections: page.sections,
        })
      }),
  )

  server.registerResource(
    'document',
    new ResourceTemplate('rag://documents/{id}', {
      list: async () => ({
        resources: (await client.listDocuments()).map((document) => ({
          uri: `rag://documents/${document.id}`,
          name: document.filename,
          description: `${document.status}, ${document.chunkCount} chunks`,
          mimeType: 'text/markdown',
        })),
      }),
    }),
    {
      title: 'Document',
      description: 'An indexed document as text, section by section, each headed by its source id',
      mimeType: 'text/markdown',
    },
    async (uri, { id }) => {
      const sections: string[] = []
      for (let offset = 0; offset < MAX_SECTIONS; ) {
        const page = await sectionsOf(client, uri, String(id), offset)
        for (const section of page.sections) sections.push(`## ${section.sourceId}\n\n${section.text}`)
        if (!page.next || page.sections.length === 0) break
        offset += page.sections.length
      }
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: sections.join('\n\n') }] }
    },
  )
}
