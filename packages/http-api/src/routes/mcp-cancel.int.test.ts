import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { generationDefaults } from '@rag/config'
import { ingestSamples } from '@rag/ingest/testing'
import { endlessGenerator } from '@rag/llm/testing'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type GatewayServer, startGatewayServer } from '../testing.ts'

// An agent over HTTP gives up on an `ask` while the LLM writes (a CPU answer can take minutes):
// the cancellation arrives as a request of its own, and must still stop the answer.
let server: GatewayServer
const llm = endlessGenerator()

beforeAll(async () => {
  server = await startGatewayServer('mcp-cancel', {
    gateway: { models: { reranker: null, llm: 'endless' } },
    workers: { generator: llm, generation: { ...generationDefaults(), maxTokens: 64, concurrency: 1 } },
  })
  await ingestSamples(server.fixture, server.dir, ['lumina-guide.pdf'])
})
afterAll(() => server?.close())

it('stops the question, and frees the LLM, when the agent cancels its call', async () => {
  const client = new Client({ name: 'impatient-agent', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`)))
  const stop = new AbortController()
  const call = client.callTool({ name: 'ask', arguments: { question: '保証期間は何年ですか' } }, undefined, {
    signal: stop.signal,
    timeout: 120_000,
  })
  await expect.poll(() => llm.requests.length, { timeout: 30_000 }).toBe(1)
  stop.abort('the user moved on')
  await expect(call).rejects.toThrow(/moved on/)

  // The generation stops (it would otherwise write until its token limit), and the question says why.
  await expect.poll(() => llm.requests[0]?.aborted, { timeout: 30_000 }).toBe(true)
  const { rows } = await server.fixture.db.pool.query<{ status: string }>('SELECT status FROM questions')
  expect(rows.map((row) => row.status)).toEqual(['cancelled'])
  await client.close()
})
