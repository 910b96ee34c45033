import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ingestSamples } from '@rag/ingest/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type GatewayServer, startGatewayServer } from '../testing.ts'

// MCP over Streamable HTTP at /mcp, as a remote client reaches it: the SDK's client and transport.
const KEY = 'mcp-http-key-0123456789'
const _sampleDir = fileURLToPath(new URL('../../../../data/sample/', import.meta.url))
let server: GatewayServer
let client: Client

beforeAll(async () => {
  server = await startGatewayServer('mcp-http', {
    gateway: { access: { apiKeys: [KEY], corsOrigins: [], askPerMinute: 0, uploadsPerMinute: 0 } },
  })
  await ingestSamples(server.fixture, server.dir, ['lumina-guide.pdf', 'faq.csv'])
  client = new Client({ name: 'remote-agent', version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${KEY}` } },
    }),
  )
})
afterAll(async () => {
  await client?.close()
  await server?.close()
})

describe('MCP over HTTP at /mcp', () => {
  it('needs the API key', async () => {
    const response = await fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
    expect(response.status).toBe(401)
  })

  it('offers the tools but not ingest_path (files of the server machine are not for remote clients)', async () => {
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'ask',
      'chat',
      'get_document',
      'give_feedback',
      'list_documents',
      'search',
    ])
    expect(client.getServerVersion()?.version).toBe('1.0.0')
  })

  it('answers with citations and passages, sending progress while it waits', async () => {
    const progress: { progress: number; message?: string }[] = []
    const result = (await client.callTool(
      {
        name: 'ask',
        arguments: { question: '保証期間は何年ですか', options: { mode: 'keyword', answer: 'extractive' } },
      },
      undefined,
      { onprogress: (notification) => progress.push(notification), resetTimeoutOnProgress: true },
    )) as unknown as {
      structuredContent: { answer: string; passages: { sourceId: string }[]; refused: boolean }
    }
    expect(result.structuredContent.refused).toBe(false)
    expect(result.structuredContent.answer).toContain('2年間')
    expect(result.structuredContent.passages[0]?.sourceId).toBe('lumina-guide.pdf:p5')
    // (The last one may cross the result on the wire; the client then drops it.)
    expect(progress.length).toBeGreaterThan(0)
    for (const { message } of progress)
      expect(message).toMatch(/^question (queued|retrieving|reranking|generating|done)$/)

    const found = (await client.callTool({
      name: 'search',
      arguments: { query: 'アームの角度', mode: 'keyword', top_k: 1 },
    })) as unknown as { structuredContent: { hits: { sourceId: string; documentId: string }[] } }
    expect(found.structuredContent.hits.map((hit) => hit.sourceId)).toEqual(['faq.csv:r2'])
    // A hit says which document it is from, so the agent can read the rest of it.
    const document = (await client.callTool({
      name: 'get_document',
      arguments: { id: found.structuredContent.hits[0]?.documentId, limit: 2 },
    })) as unknown as { structuredContent: { filename: string; sections: { sourceId: string }[] } }
    expect(document.structuredContent.filename).toBe('faq.csv')
    expect(document.structuredContent.sections.map((section) => section.sourceId)).toEqual([
      'faq.csv:r1',
      'faq.csv:r2',
    ])
    const { resources } = await client.listResources()
    expect(resources.map((resource) => resource.name).sort()).toEqual(['faq.csv', 'lumina-guide.pdf'])
  })

  it('answers a document that does not exist with the protocol\'s "resource not found"', async () => {
    const missing = client.readResource({ uri: 'rag://documents/00000000-0000-4000-8000-000000000000' })
    await expect(missing).rejects.toMatchObject({
      code: -32002,
      // The client adds "MCP error -32002: " once; the server's message must not carry it already.
      message: expect.stringMatching(/^MCP error -32002: Resource not found: /),
    })
  })
})
